import { MongoBulkWriteError, MongoServerError, type AnyBulkWriteOperation, type ClientSession, type Collection, type Db, type Filter } from 'mongodb';
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

/** The ids of `target` already written at `position` or later: nothing to do for them. */
async function settled<T extends { _id: string }>(target: Collection<T>, field: string, ids: string[], position: number, session?: ClientSession) {
  const filter = { _id: { $in: ids }, [field]: { $gte: position } } as Filter<T>;
  const found = await target.find(filter, { projection: { _id: 1 }, session }).toArray();
  return new Set(found.map((entry) => String(entry._id)));
}

/**
 * Writes the documents, each only if the position it holds is older than `position`, then moves
 * each checkpoint to `position` only if it is behind: a replay, or a writer that lost its lease
 * and commits late, can never move anything back.
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
    const done = await settled(target, 'p', group.map((write) => write.id), position, session);
    await bulkGuarded(target, group.filter((write) => !done.has(write.id)).map((write) => ({
      updateOne: {
        filter: { _id: write.id, p: { $lt: position } },
        update: { $set: { p: position, json: write.doc === null ? null : JSON.stringify(write.doc), f: lookupFields(write.doc) } },
        upsert: true,
      },
    })), session);
  }
  const marks = db.collection<{ _id: string; position: number }>('berth_checkpoints');
  const reached = await settled(marks, 'position', [...checkpoints], position, session);
  await bulkGuarded(marks, checkpoints.filter((name) => !reached.has(name)).map((name) => ({
    updateOne: { filter: { _id: name, position: { $lt: position } }, update: { $set: { position } }, upsert: true },
  })), session);
}
