import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const PREFIX = 'enc:v1:';

/** A value sealed with the instance key; only such values may carry secrets into the log. */
export type Sealed = `enc:v1:${string}`;

export const isSealed = (value: unknown): value is Sealed => typeof value === 'string' && value.startsWith(PREFIX);

/** AES-256-GCM with a random 96-bit nonce per value: `enc:v1:<nonce>.<tag>.<ciphertext>` in base64url. */
export class SecretBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('The instance key must be 32 bytes');
  }

  seal(plain: string): Sealed {
    const nonce = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, nonce);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `${PREFIX}${nonce.toString('base64url')}.${cipher.getAuthTag().toString('base64url')}.${body.toString('base64url')}`;
  }

  open(sealed: Sealed): string {
    const [nonce, tag, body] = sealed.slice(PREFIX.length).split('.');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(nonce ?? '', 'base64url'));
    decipher.setAuthTag(Buffer.from(tag ?? '', 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body ?? '', 'base64url')), decipher.final()]).toString('utf8');
  }

  /** A copy of `value` with every sealed string opened, at any depth: what an answer shows. */
  reveal<T>(value: T): T {
    if (isSealed(value)) return this.open(value) as T;
    if (Array.isArray(value)) return value.map((item) => this.reveal(item)) as T;
    if (value && typeof value === 'object') {
      const copy: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value)) copy[key] = this.reveal(item);
      return copy as T;
    }
    return value;
  }
}
