// The reactor over a kind of service's events (applications, compose services, databases): the
// actions the API waits for (start, stop, reload) done on the engine and answered with an outcome
// event; and a deleted service's runtime parts removed (its deployment records and logs pruned).
// Each is done in the service's turn of the deployment queue, never in the middle of a deployment.
// A stop and a removal first cancel the deployments asked before them, a running one stopped:
// it would otherwise bring the service back up when it ends. A request acknowledged on the bus and
// left undone by a stopped or killed process is taken up when the reactors start.
import type { Action, ActionOutcome } from '@berth/shared/domain/application/status';
import { isUnavailable } from '@berth/shared/ports/unavailable';
import { fold, type AnyAggregate } from '@berth/shared/domain/aggregate';
import { deploymentAggregate, FINISHED, type Deployment } from '@berth/shared/domain/deployment/deployment';
import { PENDING_ACTIONS, answersRequest, serviceKindOf } from '@berth/shared/domain/service-kinds';
import { streamName, type RecordedEvent } from '@berth/shared/events/event';
import type { Reactor } from '../runtime/reactor.ts';
import { hostPortsOf } from '../compose/host-ports.ts';
import { unansweredRequests } from './actions-first.ts';
import type { Deployer, DeployerDeps } from './deployer.ts';
import { reasonOf } from './reason.ts';

/** What the engine does for the kind; an action it does not offer is never requested. */
export type RuntimeActions<R> = Partial<Record<Action, (record: R) => Promise<void>>> & {
  remove(record: R): Promise<void>;
  /** Whether the engine holds the service: one whose stop finds none fails, unless the stop cancelled its first deploy. */
  isOnEngine?(record: R): Promise<boolean>;
};

export interface ServiceKind {
  /** The durable consumer's name. */
  readonly name: string;
  readonly aggregate: AnyAggregate;
  /** The field of a deployment record that names the service: its id field unless said otherwise. */
  readonly deploymentField?: string;
}

type Request = { action: Action; requestId: string } & Record<string, unknown>;

/** A failed action as reported: why, and whether the engine (or a store) could not be reached, which the caller may try again. */
const failureOf = (error: unknown): ActionOutcome => ({ reason: reasonOf(error), ...(isUnavailable(error) && { unavailable: true }) });

/** How long a stop or removal waits for the read models to hold the deployments asked before it. */
const READ_MODELS_WAIT_MS = 30_000;

/** How recent a request left unanswered by a stopped process must be to be done when the reactors start. */
const TAKE_UP_MS = 10 * 60_000;

export function serviceRuntime<R>(deps: DeployerDeps, deployer: Deployer, kind: ServiceKind, actions: RuntimeActions<R>): Reactor {
  const { eventStore, report } = deps;
  const { aggregate } = kind;
  const { actionRequested, removed } = serviceKindOf(aggregate);
  /** Requests taken up at the start, by event id: the bus may hand one out again too. */
  const takenUp = new Set<string>();
  const idOf = (event: RecordedEvent) => String((event.data as Record<string, unknown>)[aggregate.idField]);
  const deploymentsOf = (id: string) => deps.readStore.find('deployment', kind.deploymentField ?? aggregate.idField, id);

  /** The service as its stream says, up to (not including) the event at `before`. */
  async function recordAt(id: string, before = Infinity) {
    const { events } = await eventStore.readStream(`${aggregate.name}-${id}`);
    return { events, record: fold(aggregate, events.filter((e) => e.position < before)) as R | null };
  }

  /**
   * Cancels the service's deployments asked before `event` that have not ended (a running one is
   * stopped); one asked after it is the caller's later wish, and runs. Answers how many it cancelled.
   */
  async function cancelDeploymentsBefore(id: string, event: RecordedEvent): Promise<number> {
    await deps.readStore.waitFor(event.position, READ_MODELS_WAIT_MS).catch(() => {});
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
    return before.length;
  }

  /**
   * Takes the service's turn at once (a deployment asked after the request no longer starts before
   * it), and reports the outcome once done. The bus's handler does not wait for the turn: a
   * service's actions waiting behind its build would hold the bus's slots, and with them every
   * other service's actions.
   */
  function act(event: RecordedEvent): void {
    const request = event.data as Request;
    const id = idOf(event);
    let answered = false;
    let cancelled = 0;
    /** How the step before the turn failed (a stop's cancellations): the turn then only says so. */
    let failedFirst: ActionOutcome | null = null;
    const perform = async () => {
      // From the record as it is after the deployment that ran.
      const { record } = await recordAt(id);
      if (!record) throw new Error(`the ${aggregate.label.toLowerCase()} was deleted`);
      const action = actions[request.action];
      if (!action) throw new Error(`${request.action} is not offered for a ${aggregate.label.toLowerCase()}`);
      // The first deploy this stop cancelled left nothing on the engine: nothing runs, as asked.
      if (cancelled > 0 && actions.isOnEngine && !(await actions.isOnEngine(record))) return;
      await action(record);
    };
    void deployer.inTurn(id, async () => {
      if (answered) return;
      const outcome = failedFirst ?? await perform().then(() => ({ reason: null }), failureOf);
      // Reported in the turn: a deployment waiting behind the action starts from the status it left.
      await report(aggregate, id, { type: 'RecordActionOutcome', data: { ...request, ...outcome } }, event);
    }, async () => {
      try {
        // Answered already (a redelivery): the engine is not asked twice.
        const { events } = await recordAt(id);
        answered = events.some((later) => answersRequest(later, request.requestId));
        if (!answered && request.action === 'stop') cancelled = await cancelDeploymentsBefore(id, event);
      } catch (error) {
        failedFirst = failureOf(error);
      }
    }).catch((error: unknown) => console.warn(`the ${request.action} of ${id} was done, and its outcome could not be reported: ${reasonOf(error)}`));
  }

  async function removeRuntime(event: RecordedEvent): Promise<void> {
    const id = idOf(event);
    await deployer.inTurn(id, async () => {
      const { record } = await recordAt(id, event.position);
      if (!record) return;
      await actions.remove(record);
      // The host ports its service published (handed to it as its ports went), free once the engine let them go.
      await hostPortsOf(report, id, event).release((record as { publishedPorts?: string[] }).publishedPorts ?? []);
    }, () => cancelDeploymentsBefore(id, event));
    for (const doc of await deploymentsOf(id)) {
      const deploymentId = String(doc.deploymentId);
      await report(deploymentAggregate, deploymentId, { type: 'PruneDeployment', data: { deploymentId } }, event);
      deps.logs.remove(deploymentId);
    }
  }

  /**
   * Each request left unanswered, in the order asked (the deployer takes up its queued deployments
   * after these; its recovery has waited for the read models). One asked too long ago is answered as
   * expired, not done: the service has been deployed or acted on since, as far as anyone knows.
   */
  async function takeUp(): Promise<void> {
    for (const { id } of await deps.readStore.find(PENDING_ACTIONS, 'aggregate', aggregate.name)) {
      for (const asked of unansweredRequests((await eventStore.readStream(streamName(aggregate.name, String(id)))).events)) {
        takenUp.add(asked.id);
        const age = deps.clock.now().getTime() - Date.parse(asked.metadata.occurredAt);
        if (age <= TAKE_UP_MS) act(asked);
        else await expire(asked, age);
      }
    }
  }

  async function expire(asked: RecordedEvent, age: number): Promise<void> {
    const reason = `not done: Berth stopped before it was, ${Math.round(age / 60_000)} minutes ago; ask again`;
    await report(aggregate, idOf(asked), { type: 'RecordActionOutcome', data: { ...(asked.data as Request), reason, expired: true } }, asked)
      .catch((error: unknown) => console.warn(`the expired ${(asked.data as Request).action} of ${idOf(asked)} could not be answered: ${reasonOf(error)}`));
  }

  return {
    name: kind.name,
    aggregate: aggregate.name,
    start: takeUp,
    handle: async (event) => {
      if (event.type === actionRequested && !takenUp.has(event.id)) act(event);
      else if (event.type === removed) await removeRuntime(event);
    },
  };
}
