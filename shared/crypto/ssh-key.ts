import { generateKeyPairSync, randomBytes } from 'node:crypto';

// OpenSSH wire encoding: a string is a uint32 length followed by its bytes.
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};
export const sshString = (value: Buffer | string) => {
  const bytes = typeof value === 'string' ? Buffer.from(value) : value;
  return Buffer.concat([u32(bytes.length), bytes]);
};

export interface SshKeyPair {
  /** `ssh-ed25519 AAAA… berth`, to paste into a forge's deploy keys. */
  readonly publicKey: string;
  /** `-----BEGIN OPENSSH PRIVATE KEY-----`, as `ssh` and `git` read it. */
  readonly privateKey: string;
}

/** A fresh ed25519 key pair in OpenSSH formats. */
export function generateSshKeyPair(comment = 'berth'): SshKeyPair {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const pub = Buffer.from(publicKey.export({ format: 'jwk' }).x!, 'base64url');
  const seed = Buffer.from(privateKey.export({ format: 'jwk' }).d!, 'base64url');
  const publicBlob = Buffer.concat([sshString('ssh-ed25519'), sshString(pub)]);
  const check = randomBytes(4);
  let secret = Buffer.concat([
    check, check, sshString('ssh-ed25519'), sshString(pub), sshString(Buffer.concat([seed, pub])), sshString(comment),
  ]);
  const padding = (8 - (secret.length % 8)) % 8;
  secret = Buffer.concat([secret, Buffer.from(Array.from({ length: padding }, (_, i) => i + 1))]);
  const body = Buffer.concat([
    Buffer.from('openssh-key-v1\0'), sshString('none'), sshString('none'), sshString(''), u32(1),
    sshString(publicBlob), sshString(secret),
  ]);
  const lines = body.toString('base64').match(/.{1,70}/g) ?? [];
  return {
    publicKey: `ssh-ed25519 ${publicBlob.toString('base64')} ${comment}`,
    privateKey: `-----BEGIN OPENSSH PRIVATE KEY-----\n${lines.join('\n')}\n-----END OPENSSH PRIVATE KEY-----\n`,
  };
}
