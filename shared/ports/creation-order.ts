// The order records were made in, as lists answer them (newest first). `createdAt` is to the
// millisecond, and a burst (deployments queued at once) shares one: the log position of the
// event that made each record (kept by the entity read models) then says which came first.
import type { Doc } from './read-store.ts';

/** The read-model field holding the log position of the event that made the document. */
export const MADE_AT = '_madeAt';

const madeAt = (doc: Doc): number => (typeof doc[MADE_AT] === 'number' ? doc[MADE_AT] : 0);

/** By creation, newest first: ISO timestamps order as plain strings (a locale comparison costs far more). */
export const newestFirst = (a: Doc, b: Doc): number => {
  const [x, y] = [String(a.createdAt ?? ''), String(b.createdAt ?? '')];
  return x < y ? 1 : x > y ? -1 : madeAt(b) - madeAt(a);
};
