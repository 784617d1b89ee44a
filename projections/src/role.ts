import type { Infrastructure } from '@berth/shared/runtime/infrastructure';
import { runLeased } from '@berth/shared/runtime/leased';
import type { RunningRole } from '@berth/shared/runtime/role';
import { prepareReadStore, projections } from './catalogue.ts';
import { ProjectionRunner } from './runner.ts';

/** One projections process writes at a time: when the roles run apart, the others wait for its lease. */
export async function start(infra: Infrastructure): Promise<RunningRole> {
  await prepareReadStore(infra.readStore);
  const runner = new ProjectionRunner(infra.eventStore, infra.readStore, projections, true);
  return runLeased(infra, 'projections', { start: () => runner.start(), stop: () => runner.stop() });
}
