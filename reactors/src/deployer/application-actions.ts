// The reactor over application events: start, stop and reload on the engine, each answered with an
// outcome event the API waits for; and a deleted application's runtime parts removed (its queued
// deployments cancelled, a running one stopped first, its deployment records and logs pruned).
import { applicationAggregate } from '@berth/shared/domain/application/application';
import type { Application } from '@berth/shared/domain/application/record';
import type { Action } from '@berth/shared/domain/application/status';
import { fold, type AnyAggregate } from '@berth/shared/domain/aggregate';
import { deploymentAggregate, FINISHED, type Deployment } from '@berth/shared/domain/deployment/deployment';
import type { RecordedEvent } from '@berth/shared/events/event';
import type { Reactor } from '../runtime/reactor.ts';
import type { Deployer, DeployerDeps } from './deployer.ts';
import type { ServiceActions } from './work.ts';

type Request = { applicationId: string; action: Action; requestId: string };

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error)) || 'failed';

export function applicationActions(deps: DeployerDeps, deployer: Deployer, actions: ServiceActions): Reactor {
  const { eventStore, report } = deps;

  /** The application as its stream says, up to (not including) the event at `before`. */
  async function applicationAt(applicationId: string, before = Infinity) {
    const { events } = await eventStore.readStream(`application-${applicationId}`);
    return { events, application: fold(applicationAggregate as AnyAggregate, events.filter((e) => e.position < before)) as Application | null };
  }

  async function act(event: RecordedEvent): Promise<void> {
    const request = event.data as Request;
    const { events, application } = await applicationAt(request.applicationId);
    // Answered already (a redelivery): the engine is not asked twice.
    if (events.some((e) => e.position > event.position && (e.data as Partial<Request>).requestId === request.requestId)) return;
    let reason: string | null = null;
    try {
      if (!application) throw new Error('the application was deleted');
      await actions[request.action](application);
    } catch (error) {
      reason = reasonOf(error);
    }
    await report(applicationAggregate, request.applicationId, { type: 'RecordActionOutcome', data: { ...request, reason } }, event);
  }

  async function removeRuntime(event: RecordedEvent): Promise<void> {
    const { applicationId } = event.data as { applicationId: string };
    const docs = await deps.readStore.find('deployment', 'applicationId', applicationId) as unknown as Deployment[];
    for (const doc of docs.filter((d) => !FINISHED.has(d.status))) {
      await report(deploymentAggregate, doc.deploymentId, { type: 'CancelDeployment', data: { deploymentId: doc.deploymentId, at: deps.clock.now().toISOString() } }, event)
        .catch(() => {}); // ended meanwhile
      deployer.abort(doc.deploymentId);
    }
    await deployer.queue.whenIdle(applicationId);
    const { application } = await applicationAt(applicationId, event.position);
    if (application) await actions.remove(application);
    for (const doc of await deps.readStore.find('deployment', 'applicationId', applicationId)) {
      const deploymentId = String(doc.deploymentId);
      await report(deploymentAggregate, deploymentId, { type: 'PruneDeployment', data: { deploymentId } }, event);
      deps.logs.remove(deploymentId);
    }
  }

  return {
    name: 'application-runtime',
    aggregate: 'application',
    handle: async (event) => {
      if (event.type === 'ApplicationActionRequested') await act(event);
      else if (event.type === 'ApplicationDeleted') await removeRuntime(event);
    },
  };
}
