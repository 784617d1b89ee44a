// A service left `running` by a deployment that has ended: the end and the service's status change
// are two appends, and a crash between them leaves the service `running` for good, which the
// deployer's recovery (deployments still `running`) does not see. Found from the service's own
// history: the event that last made it `running` came from a deployment that is finished now. A
// deployment that started with the service `running` already (queued behind one that ended, see
// held-ends.ts) made no such event: the service then follows the one of its deployments that ended last.
import type { AnyAggregate } from '@berth/shared/domain/aggregate';
import { applicationAggregate } from '@berth/shared/domain/application/application';
import { composeAggregate } from '@berth/shared/domain/compose/compose';
import { deploymentAggregate, FINISHED, lastEndedFirst, type Deployment } from '@berth/shared/domain/deployment/deployment';
import { streamName } from '@berth/shared/events/event';
import type { EventStore } from '@berth/shared/ports/event-store';
import type { ReadStore } from '@berth/shared/ports/read-store';
import { load } from '@berth/shared/runtime/execute';

/** The services whose status follows their deployments, and the field that holds it. */
const FOLLOWING: ReadonlyArray<{ readonly aggregate: AnyAggregate; readonly statusField: string }> = [
  { aggregate: applicationAggregate as AnyAggregate, statusField: 'applicationStatus' },
  { aggregate: composeAggregate as AnyAggregate, statusField: 'composeStatus' },
];

type State = Record<string, unknown> | null;

/** The deployment whose start last made the service `running`, if it was one. */
function runningSince(aggregate: AnyAggregate, statusField: string, events: readonly { type: string; data: unknown }[]): string | null {
  let state: State = null;
  let cause: string | null = null;
  for (const event of events) {
    const before = state?.[statusField];
    state = (aggregate.evolve as (state: State, event: unknown) => State)(state, event);
    if (state?.[statusField] === 'running' && before !== 'running') {
      const deploymentId = (event.data as { deploymentId?: unknown }).deploymentId;
      cause = typeof deploymentId === 'string' ? deploymentId : null;
    }
  }
  return cause;
}

/** The ended deployments that left their services `running`. */
export async function strandedDeployments(eventStore: EventStore, readStore: ReadStore): Promise<Deployment[]> {
  const stranded: Deployment[] = [];
  for (const { aggregate, statusField } of FOLLOWING) {
    for (const service of await readStore.find(aggregate.name, statusField, 'running')) {
      const id = String(service[aggregate.idField]);
      const { events } = await eventStore.readStream(streamName(aggregate.name, id));
      const deploymentId = runningSince(aggregate, statusField, events);
      if (deploymentId === null) continue; // made `running` by hand (markRunning, changeStatus)
      const deployment = (await load(eventStore, deploymentAggregate, deploymentId)).state as Deployment | null;
      if (!deployment || !FINISHED.has(deployment.status)) continue;
      const deployments = await readStore.find('deployment', aggregate.idField, id) as unknown as Deployment[];
      if (deployments.some((later) => later.status === 'running')) continue; // one still runs (put back later): it ends the status
      stranded.push(deployments.filter((ended) => FINISHED.has(ended.status) && ended.startedAt !== null).sort(lastEndedFirst)[0] ?? deployment);
    }
  }
  return stranded;
}
