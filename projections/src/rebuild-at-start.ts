// An upgrade may change what the projections make of the same events (a field added to a
// record): documents projected by the older code would be served as they are. So the projections
// role, before it follows the log, rebuilds the read models when the fingerprint of the code that
// built them is not the running code's, beside the live ones (the same path as
// `berth projections rebuild`): a reader sees the old documents until one transaction switches.
import { newId } from '@berth/shared/ids';
import type { EventStore } from '@berth/shared/ports/event-store';
import type { ReadStore } from '@berth/shared/ports/read-store';
import { builtBy, fingerprintOf, storedFingerprint } from './fingerprint.ts';
import { rebuildBeside } from './live-rebuild.ts';
import type { Projection } from './projection.ts';

/** Rebuilds up to the furthest checkpoint when the stored read models were built by other code; says whether it did. */
export async function rebuildIfBuiltByOtherCode(
  events: EventStore, store: ReadStore, projections: readonly Projection[], checkpoints: ReadonlyMap<string, number>,
): Promise<boolean> {
  const fingerprint = fingerprintOf(projections);
  const stored = await storedFingerprint(store);
  if (stored === fingerprint) return false;
  const until = Math.max(0, ...checkpoints.values());
  if (until === 0) {
    // Nothing projected yet (a new folder, or read models an operator deleted): the runner builds them all.
    await store.commit([], 0, [builtBy(fingerprint)]);
    return false;
  }
  const started = performance.now();
  console.log(`projections: the read models were built by ${stored === null ? 'a Berth from before fingerprints' : 'other code'}; rebuilding them from the log up to position ${until}`);
  await rebuildBeside(events, store, projections, { rebuildId: newId(), name: null, requestedAt: new Date().toISOString() }, until);
  console.log(`projections: read models rebuilt in ${((performance.now() - started) / 1000).toFixed(2)} s`);
  return true;
}
