// The deployment's life: queued → running → done | error | cancelled. Each step is decided here,
// so a step that already happened (a redelivered event, a second reactor) appends nothing.
import type { Status } from '../../contract/schema.ts';
import { conflict } from '../../errors.ts';
import type { Aggregate } from '../aggregate.ts';
import { exhaustive } from '../aggregate.ts';
import { mustExist, mustNotExist } from '../decisions.ts';
import { FINISHED, newDeployment, requestOf, type Deployment, type NewDeployment } from './record.ts';

export * from './record.ts';

type Id = { deploymentId: string };
type At = Id & { at: string };

export type DeploymentCommand =
  | { type: 'QueueDeployment'; data: NewDeployment }
  | { type: 'StartDeployment'; data: At & { statusBefore: Status } }
  | { type: 'FinishDeployment'; data: At & { image: string; revision: string | null } }
  /** `unavailable`: what it needed (the engine) could not be reached, so the same deploy may succeed once it is back. */
  | { type: 'FailDeployment'; data: At & { reason: string; unavailable?: true } }
  | { type: 'CancelDeployment'; data: At }
  /** cleanQueues: cancels the deployment only while it waits; one that started meanwhile runs on. */
  | { type: 'CancelQueuedDeployment'; data: At }
  /** The work of a running deployment stopped after its cancellation. */
  | { type: 'ConfirmCancellation'; data: At }
  | { type: 'PruneDeployment'; data: Id };

export type DeploymentEvent =
  // Schema version 2: the request only. Version 1 carried a whole record, its later fields all empty (see events/catalogue.ts).
  | { type: 'DeploymentQueued'; data: NewDeployment }
  | { type: 'DeploymentStarted'; data: At & { statusBefore: Status } }
  | { type: 'DeploymentFinished'; data: At & { image: string; revision: string | null } }
  | { type: 'DeploymentFailed'; data: At & { reason: string; unavailable?: true } }
  | { type: 'DeploymentCancellationRequested'; data: At }
  | { type: 'DeploymentCancelled'; data: At & { reason: string } }
  | { type: 'DeploymentPruned'; data: Id };

const LABEL = 'Deployment';
const CANCELLED = 'cancelled by request';

const exists = (state: Deployment | null) => mustExist(state, 'deploymentId', LABEL);

function cancel(deployment: Deployment, data: At): DeploymentEvent[] {
  if (FINISHED.has(deployment.status)) throw conflict(`names a deployment that already ended (${deployment.status})`, 'deploymentId');
  if (deployment.status === 'queued') return [{ type: 'DeploymentCancelled', data: { ...data, reason: CANCELLED } }];
  return deployment.cancelRequested ? [] : [{ type: 'DeploymentCancellationRequested', data }];
}

export const deploymentAggregate: Aggregate<Deployment, DeploymentCommand, DeploymentEvent> = {
  name: 'deployment',
  idField: 'deploymentId',
  label: LABEL,
  evolve(state, event) {
    switch (event.type) {
      case 'DeploymentQueued': return newDeployment(event.data);
      case 'DeploymentStarted':
        return state && { ...state, status: 'running', startedAt: event.data.at, statusBefore: event.data.statusBefore };
      case 'DeploymentFinished':
        return state && { ...state, status: 'done', finishedAt: event.data.at, image: event.data.image, revision: event.data.revision };
      case 'DeploymentFailed': return state && { ...state, status: 'error', finishedAt: event.data.at, reason: event.data.reason };
      case 'DeploymentCancellationRequested': return state && { ...state, cancelRequested: true };
      case 'DeploymentCancelled':
        return state && { ...state, status: 'cancelled', finishedAt: event.data.at, reason: event.data.reason };
      case 'DeploymentPruned': return null;
      default: return exhaustive(event);
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'QueueDeployment':
        mustNotExist(state, LABEL, 'deploymentId');
        return [{ type: 'DeploymentQueued', data: requestOf(command.data) }];
      case 'StartDeployment':
        // Only a queued deployment starts: a cancelled one is skipped, a started one never runs twice.
        return exists(state).status === 'queued' ? [{ type: 'DeploymentStarted', data: command.data }] : [];
      case 'FinishDeployment':
        return exists(state).status === 'running' ? [{ type: 'DeploymentFinished', data: command.data }] : [];
      case 'FailDeployment':
        return FINISHED.has(exists(state).status) ? [] : [{ type: 'DeploymentFailed', data: command.data }];
      case 'CancelDeployment': return cancel(exists(state), command.data);
      case 'CancelQueuedDeployment': {
        const deployment = exists(state);
        return deployment.status === 'queued' ? cancel(deployment, command.data) : [];
      }
      case 'ConfirmCancellation':
        return exists(state).status === 'running' ? [{ type: 'DeploymentCancelled', data: { ...command.data, reason: CANCELLED } }] : [];
      case 'PruneDeployment':
        return state && FINISHED.has(state.status) ? [{ type: 'DeploymentPruned', data: command.data }] : [];
      default: return exhaustive(command);
    }
  },
};
