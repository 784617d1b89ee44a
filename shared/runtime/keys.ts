import { hkdfSync, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { SecretBox } from '../crypto/secrets.ts';
import { madeOnce } from './made-once.ts';

/** The instance key: from the environment, else a file of the data folder made on first start. */
export function loadInstanceKey(dataDir: string, fromEnv: string | undefined): Buffer {
  if (fromEnv) {
    const key = Buffer.from(fromEnv, 'base64');
    if (key.length !== 32) throw new Error('BERTH_INSTANCE_KEY must be base64 of 32 bytes');
    return key;
  }
  return loadInstanceKey(dataDir, madeOnce(join(dataDir, 'instance.key'), () => randomBytes(32).toString('base64')));
}

/** A key for one purpose, derived from the instance key, so one leak never opens another. */
export const deriveKey = (instanceKey: Buffer, purpose: string): Uint8Array =>
  new Uint8Array(hkdfSync('sha256', instanceKey, Buffer.alloc(0), `berth:${purpose}`, 32));

/** The box that seals and opens the secrets kept in the log. */
export const secretBoxOf = (instanceKey: Buffer): SecretBox => new SecretBox(Buffer.from(deriveKey(instanceKey, 'secrets')));
