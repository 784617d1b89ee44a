import { hkdfSync, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { SecretBox } from '../crypto/secrets.ts';
import { madeOnce } from './made-once.ts';

/** The key that `text` holds, or an error naming `source`, where the text came from. */
export function instanceKeyOf(text: string, source: string): Buffer {
  const key = Buffer.from(text, 'base64');
  if (key.length !== 32) throw new Error(`${source} must be base64 of 32 bytes`);
  return key;
}

/** The instance key: from the environment, else a file of the data folder made on first start. */
export function loadInstanceKey(dataDir: string, fromEnv: string | undefined): Buffer {
  // configFrom has checked it already, naming the variable it came from.
  if (fromEnv) return instanceKeyOf(fromEnv, 'the instance key (BERTH_INSTANCE_KEY or BERTH_INSTANCE_KEY_FILE)');
  // An empty or damaged file is named, never replaced: the secrets sealed with it would be lost.
  const file = join(dataDir, 'instance.key');
  return instanceKeyOf(madeOnce(file, () => randomBytes(32).toString('base64')), `the instance key file ${file}`);
}

/** A key for one purpose, derived from the instance key, so one leak never opens another. */
export const deriveKey = (instanceKey: Buffer, purpose: string): Uint8Array =>
  new Uint8Array(hkdfSync('sha256', instanceKey, Buffer.alloc(0), `berth:${purpose}`, 32));

/** The box that seals and opens the secrets kept in the log. */
export const secretBoxOf = (instanceKey: Buffer): SecretBox => new SecretBox(Buffer.from(deriveKey(instanceKey, 'secrets')));
