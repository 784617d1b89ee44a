// What built the read models, kept beside their checkpoints in the read store: when the running
// code would project differently (an upgrade), the projections role rebuilds them at start.
//
// Made of data only, so the same code gives the same fingerprint under tsx and from the esbuild
// bundle (functions' source text differs between the two, and would miss a change in a helper an
// evolve calls: 95addec changed newDeployment, not an evolve). What data cannot see is covered by
// PROJECTIONS_VERSION, bumped by hand; a record missing a field added since answers it as null
// (command-api/src/serialization.ts), so a change that is not bumped cannot make an answer fail.
import { createHash } from 'node:crypto';
import { schemaVersions } from '@berth/shared/events/catalogue';
import type { DocWrite, ReadStore } from '@berth/shared/ports/read-store';
import type { Projection } from './projection.ts';

/** Bump it when a read model's documents could come out differently from the same log (a field added, renamed, computed otherwise). */
export const PROJECTIONS_VERSION = 2; // 2: entity documents keep the position they were made at

export const BUILT_COLLECTION = 'projectionsBuilt';
const BUILT_ID = 'fingerprint';

export function fingerprintOf(projections: readonly Projection[]): string {
  const shape = projections.map((projection) => [
    projection.name, projection.collections ?? [], projection.aggregates, projection.documentPerStream ?? false,
  ]);
  const events = Object.entries(schemaVersions()).sort(([a], [b]) => a.localeCompare(b));
  return createHash('sha256').update(JSON.stringify({ version: PROJECTIONS_VERSION, shape, events })).digest('hex');
}

/** The document that records which code built the read models: written with them, in the same commit or switch. */
export const builtBy = (fingerprint: string): DocWrite => ({ collection: BUILT_COLLECTION, id: BUILT_ID, doc: { fingerprint } });

/** The fingerprint the stored read models were built with; null for a store from before fingerprints. */
export async function storedFingerprint(store: ReadStore): Promise<string | null> {
  const doc = await store.get(BUILT_COLLECTION, BUILT_ID);
  return typeof doc?.fingerprint === 'string' ? doc.fingerprint : null;
}
