import { MongoBulkWriteError, MongoServerError, type AnyBulkWriteOperation, type ClientSession, type Collection, type Db } from 'mongodb';
import type { Doc, DocWrite, FieldValue } from '../../ports/read-store.ts';

/** A read-model document as MongoDB holds it. */
export interface Stored {
  _id: string;
  /** Position of the commit that wrote it. */
  p: number;
  /** The document as JSON; null for a deleted one (a tombstone that keeps its position). */
  json: string | null;
  /** Top-level scalar fields, for lookups. */
  f: Record<string, FieldValue>;
}

const LOOKUP_FIELD = /^[A-Za-z_][A-Za-z0-9_]*$/;
const DUPLICATE_KEY = 11000;

function lookupFields(doc: Doc | null): Record<string, FieldValue> {
  const fields: Record<string, FieldValue> = {};
  for (const [name, value] of Object.entries(doc ?? {})) {
    if (LOOKUP_FIELD.test(name) && ['string', 'number', 'boolean'].includes(typeof value)) fields[name] = value as FieldValue;
  }
  return fields;
}

/**
 * A guarded upsert loses with a duplicate key when the stored position is already at or past
 * this one, which is the guard doing its job. Outside a transaction that is expected under
 * concurrency; inside one, the positions were read first in the same transaction.
 */
async function bulkGuarded<T extends { _id: string }>(target: Collection<T>, operations: AnyBulkWriteOperation<T>[], session?: ClientSession) {
  if (operations.length === 0) return;
  try {
    await target.bulkWrite(operations, { ordered: false, session });
  } catch (error) {
    const lostRaces = error instanceof MongoBulkWriteError
      && [error.writeErrors].flat().every((writeError) => writeError.code === DUPLICATE_KEY);
    const lostRace = error instanceof MongoServerError && error.code === DUPLICATE_KEY;
    if (session || !(lostRaces || lostRace)) throw error;
  }
}

/** The position each of `ids` was last written at, for those that exist. */
async function positionsOf(target: Collection<Stored>, ids: string[], session?: ClientSession) {
  const found = await target.find({ _id: { $in: ids } }, { projection: { _id: 1, p: 1 }, session }).toArray();
  return new Map(found.map((entry) => [entry._id, entry.p]));
}

const storedOf = (write: DocWrite, position: number): Stored => ({
  _id: write.id, p: position, json: write.doc === null ? null : JSON.stringify(write.doc), f: lookupFields(write.doc),
});

/**
 * Writes the documents, each only if the position it holds is older than `position`, then moves
 * each checkpoint to `position` only if it is behind: a replay, or a writer that lost its lease
 * and commits late, can never move anything back. A document not there yet is inserted (much
 * cheaper than an upsert, and what a rebuild mostly does); one inserted meanwhile by another
 * writer fails with a duplicate key and is written again through the guard.
 */
export async function writeGuarded(
  db: Db,
  collectionOf: (name: string) => Collection<Stored>,
  checkpoints: readonly string[],
  position: number,
  writes: readonly DocWrite[],
  session?: ClientSession,
): Promise<void> {
  const byCollection = new Map<string, DocWrite[]>();
  for (const write of writes) byCollection.set(write.collection, [...(byCollection.get(write.collection) ?? []), write]);
  for (const [name, group] of byCollection) {
    const target = collectionOf(name);
    const known = await positionsOf(target, group.map((write) => write.id), session);
    const fresh = group.filter((write) => !known.has(write.id));
    const older = group.filter((write) => (known.get(write.id) ?? Infinity) < position);
    const guardedUpdate = (write: DocWrite): AnyBulkWriteOperation<Stored> => ({
      updateOne: { filter: { _id: write.id, p: { $lt: position } }, update: { $set: storedOf(write, position) }, upsert: true },
    });
    await bulkGuarded(target, [
      ...fresh.map((write): AnyBulkWriteOperation<Stored> => ({ insertOne: { document: storedOf(write, position) } })),
      ...older.map(guardedUpdate),
    ], session);
    if (!session && fresh.length > 0) {
      // Inserted by someone else in between: those now exist, and go through the guard.
      const now = await positionsOf(target, fresh.map((write) => write.id));
      await bulkGuarded(target, fresh.filter((write) => (now.get(write.id) ?? Infinity) < position).map(guardedUpdate));
    }
  }
  const marks = db.collection<{ _id: string; position: number }>('berth_checkpoints');
  const reached = await marks.find({ _id: { $in: [...checkpoints] }, position: { $gte: position } }, { projection: { _id: 1 }, session }).toArray();
  const done = new Set(reached.map((entry) => entry._id));
  await bulkGuarded(marks, checkpoints.filter((name) => !done.has(name)).map((name) => ({
    updateOne: { filter: { _id: name, position: { $lt: position } }, update: { $set: { position } }, upsert: true },
  })), session);
}
