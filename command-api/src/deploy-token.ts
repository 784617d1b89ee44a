// A service's deploy token, the only credential of a push to deploy: kept sealed in its record, so
// the one holding a token is found by opening each record's.
import { timingSafeEqual } from 'node:crypto';
import { isSealed } from '@berth/shared/crypto/secrets';
import type { Infrastructure } from '@berth/shared/runtime/infrastructure';

// Compared as bytes: a token of as many characters but more bytes must not reach timingSafeEqual.
const same = (a: string, b: string) => {
  const [given, known] = [Buffer.from(a), Buffer.from(b)];
  return given.length === known.length && timingSafeEqual(given, known);
};

/** The record of `collection` (application, compose) whose deploy token is `token`, or null. */
export async function holderOfToken<T>(infra: Infrastructure, collection: string, token: string): Promise<T | null> {
  for (const doc of await infra.readStore.all(collection)) {
    const sealed = doc.refreshToken;
    if (isSealed(sealed) && same(infra.secrets.open(sealed), token)) return doc as unknown as T;
  }
  return null;
}
