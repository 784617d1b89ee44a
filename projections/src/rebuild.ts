import type { EventStore } from '@berth/shared/ports/event-store';
import type { ReadStore } from '@berth/shared/ports/read-store';
import { prepareReadStore, projections } from './catalogue.ts';
import { ProjectionRunner } from './runner.ts';

/** Replays the whole log into an empty read store; answers how many events it applied. */
export async function rebuildInto(events: EventStore, target: ReadStore, pageSize = 5000): Promise<number> {
  await target.clear();
  await prepareReadStore(target);
  const runner = new ProjectionRunner(events, target, projections);
  let position = 0;
  let count = 0;
  for (;;) {
    const page = await events.readAll(position, pageSize);
    if (page.length === 0) return count;
    await runner.apply(page);
    position = page[page.length - 1]!.position;
    count += page.length;
  }
}
