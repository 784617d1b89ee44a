// The reactor over a kind of service's events (applications, compose services, databases): the
// actions the API waits for (start, stop, reload) done on the engine and answered with an outcome
// event; and a deleted service's runtime parts removed (its deployment records and logs pruned).
// A stop and a removal first cancel the deployments asked before them, a running one stopped:
// it would otherwise bring the service back up when it ends.
import type { Action } from '@berth/shared/domain/application/status';
import { fold, type AnyAggregate } from '@berth/shared/domain/aggregate';
import { streamName } from '@berth/shared/events/event';
import { load } from '@berth/shared/runtime/execute';
import { deploymentAggregate, FINISHED, type Deployment } from '@berth/shared/domain/deployment/deployment';
import type { RecordedEvent } from '@berth/shared/events/event';
import type { Reactor } from '../runtime/reactor.ts';
import type { Deployer, DeployerDeps } from './deployer.ts';

/** What the engine does for the kind; an action it does not offer is never requested. */
export type RuntimeActions<R> = Partial<Record<Action, (record: R) => Promise<void>>> & { remove(record: R): Promise<void> };

export interface ServiceKind {
  /** The durable consumer's name. */
  readonly name: string;
  readonly aggregate: AnyAggregate;
  readonly requested: string;
  readonly deleted: string;
  /** The field of a deployment record that names the service: its id field unless said otherwise. */
  readonly deploymentField?: string;
}

type Request = { action: Action; requestId: string } & Record<string, unknown>;

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error)) || 'failed';

/** How long a stop or removal waits for a cancelled deployment to end before it goes on anyway. */
const CANCELLED_END_WAIT_MS = 60_000;

export function serviceRuntime<R>(deps: DeployerDeps, deployer: Deployer, kind: ServiceKind, actions: RuntimeActions<R>): Reactor {
  const { eventStore, report } = deps;
  const { aggregate } = kind;
  const idOf = (event: RecordedEvent) => String((event.data as Record<string, unknown>)[aggregate.idField]);
  const deploymentsOf = (id: string) => deps.readStore.find('deployment', kind.deploymentField ?? aggregate.idField, id);

  /** The service as its stream says, up to (not including) the event at `before`. */
  async function recordAt(id: string, before = Infinity) {
    const { events } = await eventStore.readStream(`${aggregate.name}-${id}`);
    return { events, record: fold(aggregate, events.filter((e) => e.position < before)) as R | null };
  }

  const ended = async (deploymentId: string) =>
    FINISHED.has(((await load(eventStore, deploymentAggregate, deploymentId)).state as Deployment | null)?.status ?? 'done');

  /**
   * Cancels the service's deployments asked before `event` that have not ended, and waits (bounded)
   * for the running one to end; one asked after it is the caller's later wish, and runs.
   */
  async function cancelDeploymentsBefore(id: string, event: RecordedEvent): Promise<void> {
    await deps.readStore.waitFor(event.position, CANCELLED_END_WAIT_MS).catch(() => {});
    const unfinished = (await deploymentsOf(id) as unknown as Deployment[]).filter((doc) => !FINISHED.has(doc.status));
    const before: string[] = [];
    for (const { deploymentId } of unfinished) {
      const { events } = await eventStore.readStream(streamName(deploymentAggregate.name, deploymentId));
      if ((events[0]?.position ?? Infinity) < event.position) before.push(deploymentId);
    }
    for (const deploymentId of before) {
      await report(deploymentAggregate, deploymentId, { type: 'CancelDeployment', data: { deploymentId, at: deps.clock.now().toISOString() } }, event)
        .catch(() => {}); // ended meanwhile
      deployer.abort(deploymentId);
    }
    const deadline = Date.now() + CANCELLED_END_WAIT_MS;
    for (const deploymentId of before) {
      while (Date.now() < deadline && !(await ended(deploymentId))) await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  async function act(event: RecordedEvent): Promise<void> {
    const request = event.data as Request;
    const id = idOf(event);
    const { events, record } = await recordAt(id);
    // Answered already (a redelivery): the engine is not asked twice.
    if (events.some((e) => e.position > event.position && (e.data as Partial<Request>).requestId === request.requestId)) return;
    if (request.action === 'stop') await cancelDeploymentsBefore(id, event);
    let reason: string | null = null;
    try {
      if (!record) throw new Error(`the ${aggregate.label.toLowerCase()} was deleted`);
      const action = actions[request.action];
      if (!action) throw new Error(`${request.action} is not offered for a ${aggregate.label.toLowerCase()}`);
      await action(record);
    } catch (error) {
      reason = reasonOf(error);
    }
    await report(aggregate, id, { type: 'RecordActionOutcome', data: { ...request, reason } }, event);
  }

  async function removeRuntime(event: RecordedEvent): Promise<void> {
    const id = idOf(event);
    await cancelDeploymentsBefore(id, event);
    await deployer.queue.whenIdle(id);
    const { record } = await recordAt(id, event.position);
    if (record) await actions.remove(record);
    for (const doc of await deploymentsOf(id)) {
      const deploymentId = String(doc.deploymentId);
      await report(deploymentAggregate, deploymentId, { type: 'PruneDeployment', data: { deploymentId } }, event);
      deps.logs.remove(deploymentId);
    }
  }

  return {
    name: kind.name,
    aggregate: aggregate.name,
    handle: async (event) => {
      if (event.type === kind.requested) await act(event);
      else if (event.type === kind.deleted) await removeRuntime(event);
    },
  };
}
