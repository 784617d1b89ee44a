import type { Aggregate } from '../aggregate.ts';
import { exhaustive } from '../aggregate.ts';
import { mustExist, mustNotExist, updated } from '../decisions.ts';
import { beginRemoval, mustNotBeBeingRemoved, type BeginRemoval, type BeingRemoved, type RemovalBegun } from '../removal.ts';
import { conflict } from '../../errors.ts';
import { checkProxyConfig } from './proxy-config.ts';
import { mustCountReplicasOnce } from './replicas.ts';
import { mustStayDeployable } from './deployable.ts';
import type { Application } from './record.ts';
import type { Status } from '../../contract/schema.ts';
import { mustBeActionable, settleAction, statusFollowing, type Action, type ActionOutcome, type DeploymentStep } from './status.ts';
import { afterEngineChange, statusSeen, withStatus, type Drifted, type EngineSight } from './engine-drift.ts';

export type { Application, NewApplication } from './record.ts';
export { newApplication } from './record.ts';

type Id = { applicationId: string };
type With<K extends keyof Application> = Id & Pick<Application, K>;
/** Given fields of a save: one left out stays as it is. */
type Saved<K extends keyof Application> = Id & Partial<Pick<Application, K>>;
/** What a change event carries: only the fields that changed. */
type Changed = Id & Partial<Application>;

export type ApplicationCommand =
  | { type: 'CreateApplication'; data: Application }
  | { type: 'UpdateApplication'; data: Id & Partial<Omit<Application, 'applicationId' | 'createdAt'>> }
  | { type: 'SaveEnvironment'; data: Saved<'env'> }
  | { type: 'SaveBuildType'; data: Id & Pick<Application, 'buildType'> & Partial<Pick<Application, 'containerfile'>> }
  | { type: 'SaveForgeProvider'; data: Saved<'repository' | 'branch' | 'owner' | 'buildPath'> }
  | { type: 'SaveContainerProvider'; data: Saved<'containerImage' | 'username' | 'password'> }
  | { type: 'SaveGitProvider'; data: Saved<'customGitUrl' | 'customGitBranch' | 'customGitBuildPath'> }
  | { type: 'GenerateSSHKey'; data: With<'customGitSSHKey' | 'sshPrivateKey'> }
  | { type: 'RemoveSSHKey'; data: Id }
  | { type: 'RefreshToken'; data: With<'refreshToken'> }
  | { type: 'MarkRunning'; data: Id }
  /** `replacing`: the configuration the caller checked its names against; another save in between is CONFLICT. */
  | { type: 'UpdateProxyConfig'; data: Id & { proxyConfig: string; replacing?: string | null } }
  | { type: 'DeleteApplication'; data: Id }
  | BeginRemoval<Id>
  /** Asks the reactors to start, stop or reload the service; `requestId` names the answer to wait for. */
  | { type: 'RequestAction'; data: ActionRequest }
  | { type: 'RecordActionOutcome'; data: ActionRequest & ActionOutcome }
  | { type: 'FollowDeployment'; data: Id & { deploymentId: string; step: DeploymentStep; statusBefore: Status | null } }
  /** Reported by the deployer once a rollout succeeded: the host ports the service now publishes. */
  | { type: 'RecordPublishedPorts'; data: Id & { deploymentId: string; publishedPorts: string[] } }
  /** Reported by the engine watch: what the engine shows of the service, read in its turn (engine-drift.ts). */
  | { type: 'RecordEngineState'; data: Id & { seen: EngineSight } };

type ActionRequest = Id & { action: Action; requestId: string };

/** Events that carry the changed fields, folded the same way: merged into the record. */
type ChangeEventType =
  | 'ApplicationUpdated' | 'ApplicationEnvironmentSaved' | 'ApplicationBuildTypeSaved'
  | 'ApplicationForgeProviderSaved' | 'ApplicationContainerProviderSaved' | 'ApplicationGitProviderSaved'
  | 'ApplicationSSHKeyGenerated' | 'ApplicationTokenRefreshed' | 'ApplicationProxyConfigUpdated';

export type ApplicationEvent =
  | { type: 'ApplicationCreated'; data: Application }
  | { type: ChangeEventType; data: Changed }
  | { type: 'ApplicationSSHKeyRemoved'; data: Id }
  | { type: 'ApplicationMarkedRunning'; data: Id }
  | { type: 'ApplicationDeleted'; data: Id }
  | RemovalBegun<'ApplicationRemovalBegun', Id>
  | { type: 'ApplicationActionRequested'; data: ActionRequest }
  | { type: 'ApplicationActionSucceeded'; data: ActionRequest & { applicationStatus: Status } }
  | { type: 'ApplicationActionFailed'; data: ActionRequest & { reason: string; applicationStatus: Status; unavailable?: true } }
  | { type: 'ApplicationStatusChanged'; data: Id & { deploymentId: string; applicationStatus: Status } }
  | { type: 'ApplicationPortsPublished'; data: Id & { deploymentId: string; publishedPorts: string[] } }
  | { type: 'ApplicationEngineChanged'; data: Id & { seen: EngineSight; applicationStatus: Status } };

const LABEL = 'Application';
/** What an application being removed still decides: its removal, and the reports of work started before. */
const STILL = ['BeginRemoval', 'DeleteApplication', 'RecordActionOutcome', 'FollowDeployment', 'RecordPublishedPorts', 'RecordEngineState'] as const satisfies readonly ApplicationCommand['type'][];

/** One change event with the fields of `patch` that differ, or none when nothing would change. */
function change(type: ChangeEventType, state: Application | null, patch: Partial<Application>): ApplicationEvent[] {
  const application = mustExist(state, 'applicationId', LABEL);
  return updated(type, 'applicationId', application.applicationId, application, patch);
}

function actionOutcome(state: Application | null, data: ActionRequest & ActionOutcome): ApplicationEvent[] {
  if (state === null) return [];
  const { request, reason, status: applicationStatus } = settleAction(data, state.applicationStatus);
  return reason === null
    ? [{ type: 'ApplicationActionSucceeded', data: { ...request, applicationStatus } }]
    : [{ type: 'ApplicationActionFailed', data: { ...request, reason, applicationStatus } }];
}

export const applicationAggregate: Aggregate<Application & BeingRemoved & Drifted, ApplicationCommand, ApplicationEvent> = {
  name: 'application',
  idField: 'applicationId',
  label: LABEL,
  hidden: ['sshPrivateKey'],
  volatile: ['applicationStatus', 'engineDrift'],
  evolve(state, event) {
    switch (event.type) {
      case 'ApplicationCreated': return { ...event.data };
      case 'ApplicationUpdated':
      case 'ApplicationEnvironmentSaved':
      case 'ApplicationBuildTypeSaved':
      case 'ApplicationForgeProviderSaved':
      case 'ApplicationContainerProviderSaved':
      case 'ApplicationGitProviderSaved':
      case 'ApplicationSSHKeyGenerated':
      case 'ApplicationTokenRefreshed':
      case 'ApplicationProxyConfigUpdated':
        return state && { ...state, ...event.data };
      case 'ApplicationSSHKeyRemoved': return state && { ...state, customGitSSHKey: null, sshPrivateKey: null };
      case 'ApplicationMarkedRunning': return state && withStatus(state, 'applicationStatus', 'running');
      case 'ApplicationDeleted': return null;
      case 'ApplicationRemovalBegun': return state && { ...state, removingFrom: event.data.projectId };
      case 'ApplicationActionRequested': return state;
      case 'ApplicationActionSucceeded':
      case 'ApplicationActionFailed':
      case 'ApplicationStatusChanged':
        return state && withStatus(state, 'applicationStatus', event.data.applicationStatus);
      case 'ApplicationEngineChanged': return state && afterEngineChange(state, 'applicationStatus', event.data.seen, event.data.applicationStatus);
      case 'ApplicationPortsPublished': return state && { ...state, publishedPorts: event.data.publishedPorts };
      default: return exhaustive(event);
    }
  },
  decide(command, state) {
    mustNotBeBeingRemoved(state, command.type, STILL, 'applicationId', LABEL);
    switch (command.type) {
      case 'CreateApplication':
        mustNotExist(state, LABEL, 'applicationId');
        mustCountReplicasOnce(command.data, command.data);
        return [{ type: 'ApplicationCreated', data: command.data }];
      case 'UpdateApplication':
        mustCountReplicasOnce({ ...mustExist(state, 'applicationId', LABEL), ...command.data }, command.data);
        return change('ApplicationUpdated', state, mustStayDeployable(state, command.data));
      case 'SaveEnvironment': return change('ApplicationEnvironmentSaved', state, command.data);
      case 'SaveBuildType': return change('ApplicationBuildTypeSaved', state, command.data);
      case 'SaveForgeProvider': return change('ApplicationForgeProviderSaved', state, { ...command.data, sourceType: 'forge' });
      case 'SaveContainerProvider':
        return change('ApplicationContainerProviderSaved', state, { ...mustStayDeployable(state, command.data), sourceType: 'container' });
      case 'SaveGitProvider': return change('ApplicationGitProviderSaved', state, { ...command.data, sourceType: 'git' });
      case 'GenerateSSHKey': return change('ApplicationSSHKeyGenerated', state, command.data);
      case 'RemoveSSHKey': {
        const application = mustExist(state, 'applicationId', LABEL);
        return application.customGitSSHKey === null && application.sshPrivateKey === null
          ? [] : [{ type: 'ApplicationSSHKeyRemoved', data: command.data }];
      }
      case 'RefreshToken': return change('ApplicationTokenRefreshed', state, command.data);
      case 'MarkRunning': {
        const application = mustExist(state, 'applicationId', LABEL);
        return application.applicationStatus === 'running' ? [] : [{ type: 'ApplicationMarkedRunning', data: command.data }];
      }
      case 'UpdateProxyConfig': {
        const { appName, proxyConfig: stored } = mustExist(state, 'applicationId', LABEL); // an unknown id is NOT_FOUND whatever the text
        const { replacing, ...data } = command.data;
        if (replacing !== undefined && (stored ?? null) !== replacing) {
          throw conflict('proxyConfig was saved by another request while this one was checked; read it again', 'proxyConfig');
        }
        return change('ApplicationProxyConfigUpdated', state, { ...data, proxyConfig: checkProxyConfig(data.proxyConfig, appName) });
      }
      case 'DeleteApplication':
        mustExist(state, 'applicationId', LABEL);
        return [{ type: 'ApplicationDeleted', data: command.data }];
      case 'BeginRemoval': return beginRemoval('ApplicationRemovalBegun', state, command.data, 'applicationId', LABEL);
      case 'RequestAction':
        mustBeActionable(command.data.action, mustExist(state, 'applicationId', LABEL).applicationStatus, 'applicationId');
        return [{ type: 'ApplicationActionRequested', data: command.data }];
      case 'RecordActionOutcome': return actionOutcome(state, command.data);
      case 'FollowDeployment': {
        // The service may have been deleted while its deployment ran: nothing to follow then.
        if (state === null) return [];
        const { applicationId, deploymentId, step, statusBefore } = command.data;
        const applicationStatus = statusFollowing(step, statusBefore, state.applicationStatus);
        return applicationStatus === null ? [] : [{ type: 'ApplicationStatusChanged', data: { applicationId, deploymentId, applicationStatus } }];
      }
      case 'RecordPublishedPorts': {
        if (state === null) return []; // deleted while its deployment ran
        const publishedPorts = [...command.data.publishedPorts].sort();
        return JSON.stringify(publishedPorts) === JSON.stringify(state.publishedPorts ?? null)
          ? [] : [{ type: 'ApplicationPortsPublished', data: { ...command.data, publishedPorts } }];
      }
      case 'RecordEngineState': {
        if (state === null || state.removingFrom !== undefined) return []; // its removal takes it off the engine
        const applicationStatus = statusSeen(command.data.seen, state.applicationStatus, state.engineDrift !== undefined);
        return applicationStatus === null ? [] : [{ type: 'ApplicationEngineChanged', data: { ...command.data, applicationStatus } }];
      }
      default: return exhaustive(command);
    }
  },
};
