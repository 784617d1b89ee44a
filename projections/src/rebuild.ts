import type { EventStore } from '@berth/shared/ports/event-store';
import type { ReadStore } from '@berth/shared/ports/read-store';
import { prepareReadStore, projections as everyProjection } from './catalogue.ts';
import { builtBy, fingerprintOf } from './fingerprint.ts';
import type { Projection } from './projection.ts';
import { ProjectionRunner } from './runner.ts';

/** Replays the log (up to `until`) into an empty read store; answers how many events it applied. */
export async function rebuildInto(
  events: EventStore, target: ReadStore, pageSize = 5000,
  { projections = everyProjection, until = Infinity }: { projections?: readonly Projection[]; until?: number } = {},
): Promise<number> {
  await target.clear();
  await prepareReadStore(target);
  const runner = new ProjectionRunner(events, target, projections);
  let position = 0;
  let count = 0;
  for (;;) {
    const page = (await events.readAll(position, pageSize)).filter((event) => event.position <= until);
    if (page.length === 0) break;
    await runner.apply(page);
    position = page[page.length - 1]!.position;
    count += page.length;
  }
  // Every read model now comes from this code: say so, so that its next start rebuilds nothing
  // (a beside rebuild switches this document in with the others).
  if (everyProjection.every((projection) => projections.includes(projection))) {
    await target.commit([], position, [builtBy(fingerprintOf(everyProjection))]);
  }
  return count;
}
