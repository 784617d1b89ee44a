import type { Infrastructure } from '@berth/shared/runtime/infrastructure';
import type { RunningRole } from '@berth/shared/runtime/role';
import { prepareReadStore, projections } from './catalogue.ts';
import { ProjectionRunner } from './runner.ts';

export async function start({ eventStore, readStore }: Infrastructure): Promise<RunningRole> {
  await prepareReadStore(readStore);
  const runner = new ProjectionRunner(eventStore, readStore, projections, true);
  await runner.start();
  return { name: 'projections', stop: () => runner.stop() };
}
