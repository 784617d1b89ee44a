// The public half of a private key a user supplies, as an OpenSSH public key line, so it can be
// pasted into a forge's deploy keys like a generated one. node:crypto reads PEM private keys
// (PKCS#8, PKCS#1, SEC1) but not the OpenSSH format (`BEGIN OPENSSH PRIVATE KEY`): those are refused.
import { createPrivateKey, createPublicKey, type JsonWebKey } from 'node:crypto';
import { sshString } from './ssh-key.ts';

const b64 = (value: string | undefined) => Buffer.from(value ?? '', 'base64url');
/** A positive multiple-precision integer: no leading zeros, one zero byte when the high bit is set. */
const mpint = (value: string | undefined) => {
  let bytes = b64(value);
  while (bytes.length > 1 && bytes[0] === 0) bytes = bytes.subarray(1);
  return sshString((bytes[0] ?? 0) & 0x80 ? Buffer.concat([Buffer.from([0]), bytes]) : bytes);
};

const CURVES: Readonly<Record<string, string>> = { 'P-256': 'nistp256', 'P-384': 'nistp384', 'P-521': 'nistp521' };

function blobOf(type: string | undefined, jwk: JsonWebKey): [string, Buffer] | null {
  if (type === 'ed25519') return ['ssh-ed25519', sshString(b64(jwk.x))];
  if (type === 'rsa') return ['ssh-rsa', Buffer.concat([mpint(jwk.e), mpint(jwk.n)])];
  const curve = type === 'ec' ? CURVES[jwk.crv ?? ''] : undefined;
  if (!curve) return null;
  return [`ecdsa-sha2-${curve}`, Buffer.concat([sshString(curve), sshString(Buffer.concat([Buffer.from([4]), b64(jwk.x), b64(jwk.y)]))])];
}

/**
 * `ssh-ed25519 AAAA…` (or `ssh-rsa`, `ecdsa-sha2-…`) for an unencrypted PEM private key of a type
 * ssh accepts; `null` when the text is not such a key.
 */
export function sshPublicKeyOf(privateKeyPem: string): string | null {
  let jwk: JsonWebKey;
  let type: string | undefined;
  try {
    const publicKey = createPublicKey(createPrivateKey(privateKeyPem));
    type = publicKey.asymmetricKeyType;
    jwk = publicKey.export({ format: 'jwk' });
  } catch {
    return null;
  }
  const blob = blobOf(type, jwk);
  if (!blob) return null;
  const [name, body] = blob;
  return `${name} ${Buffer.concat([sshString(name), body]).toString('base64')}`;
}
