import type { COMPOSE_SOURCE_TYPES, COMPOSE_TYPES, Status } from '../../contract/schema.ts';
import type { Sealed } from '../../crypto/secrets.ts';
import { badRequest } from '../../errors.ts';
import type { Aggregate } from '../aggregate.ts';
import { exhaustive } from '../aggregate.ts';
import { changes, mustExist, mustNotExist, updated } from '../decisions.ts';
import { beginRemoval, mustNotBeBeingRemoved, type BeginRemoval, type BeingRemoved, type RemovalBegun } from '../removal.ts';
import { mustBeActionable, settleAction, statusFollowing, type Action, type ActionOutcome, type DeploymentStep } from '../application/status.ts';
import { afterEngineChange, statusSeen, withStatus, type Drifted, type EngineSight } from '../application/engine-drift.ts';
import { mustDeployAsAStack, mustStayDeployable } from './deployable.ts';
import { randomizeComposeFile, SUFFIX } from './randomize.ts';

export type ComposeType = (typeof COMPOSE_TYPES)[number];
export type ComposeSourceType = (typeof COMPOSE_SOURCE_TYPES)[number];

export interface Compose {
  composeId: string;
  name: string;
  appName: string;
  description: string | null;
  env: string | null;
  refreshToken: string | null;
  composeFile: string;
  sourceType: ComposeSourceType;
  composeType: ComposeType;
  repository: string | null;
  owner: string | null;
  branch: string | null;
  autoDeploy: boolean | null;
  customGitUrl: string | null;
  customGitBranch: string | null;
  /** The public half of the git SSH key, to paste into the forge's deploy keys. */
  customGitSSHKey: string | null;
  command: string;
  composePath: string;
  composeStatus: Status;
  projectId: string;
  createdAt: string;
  /** The private half of the git SSH key, sealed; never answered (see `hidden`). */
  sshPrivateKey: Sealed | null;
  /**
   * The services the file named when a deployment last fetched it (`allServices` of a `git` or
   * `forge` service, whose text is not stored); absent before the first fetch.
   */
  fetchedServices?: string[];
  /**
   * The host ports (`<port>/<protocol>`) that file publishes: the service holds them in the one
   * namespace of host ports (with databases' external ports and applications' published ports).
   */
  publishedPorts?: string[];
}

type Id = Pick<Compose, 'composeId'>;
export type ComposePatch = Id & Partial<Omit<Compose, 'composeId' | 'createdAt'>>;
type KeyPair = Id & { customGitSSHKey: string; sshPrivateKey: Sealed };

export type ComposeCommand =
  | { type: 'CreateCompose'; data: Compose }
  | { type: 'UpdateCompose'; data: ComposePatch }
  | { type: 'GenerateComposeSSHKey'; data: KeyPair }
  | { type: 'RemoveComposeSSHKey'; data: Id }
  | { type: 'RefreshComposeToken'; data: Id & { refreshToken: string } }
  | { type: 'RandomizeCompose'; data: Id & { suffix: string } }
  | { type: 'RemoveCompose'; data: Id }
  | BeginRemoval<Id>
  /** Asks the reactors to act on the running stack; `requestId` names the answer to wait for. */
  | { type: 'RequestAction'; data: ActionRequest }
  | { type: 'RecordActionOutcome'; data: ActionRequest & ActionOutcome }
  | { type: 'FollowDeployment'; data: Id & { deploymentId: string; step: DeploymentStep; statusBefore: Status | null } }
  /** Reported by the compose reactor once a deployment has fetched the file: the services it names, the host ports it publishes. */
  | { type: 'RecordFetchedFile'; data: FetchedFile }
  /** Reported by the engine watch: what the engine shows of the stack's services, read in its turn (engine-drift.ts). */
  | { type: 'RecordEngineState'; data: Id & { seen: EngineSight } };

type ActionRequest = Id & { action: Action; requestId: string };
type FetchedFile = Id & { services: string[]; ports: string[] };

export type ComposeEvent =
  | { type: 'ComposeCreated'; data: Compose }
  | { type: 'ComposeUpdated'; data: Id & Partial<Compose> }
  | { type: 'ComposeSSHKeyGenerated'; data: KeyPair }
  | { type: 'ComposeSSHKeyRemoved'; data: Id }
  | { type: 'ComposeTokenRefreshed'; data: Id & { refreshToken: string } }
  | { type: 'ComposeRandomized'; data: Id & { suffix: string; composeFile: string } }
  | { type: 'ComposeRemoved'; data: Id }
  | RemovalBegun<'ComposeRemovalBegun', Id>
  | { type: 'ComposeActionRequested'; data: ActionRequest }
  | { type: 'ComposeActionSucceeded'; data: ActionRequest & { composeStatus: Status } }
  | { type: 'ComposeActionFailed'; data: ActionRequest & { reason: string; composeStatus: Status; unavailable?: true } }
  | { type: 'ComposeStatusChanged'; data: Id & { deploymentId: string; composeStatus: Status } }
  | { type: 'ComposeFileFetched'; data: FetchedFile }
  | { type: 'ComposeEngineChanged'; data: Id & { seen: EngineSight; composeStatus: Status } };

const LABEL = 'Compose service';
const ID = 'composeId';
/** What a compose service being removed still decides: its removal, and the reports of work started before. */
const STILL = ['BeginRemoval', 'RemoveCompose', 'RecordActionOutcome', 'FollowDeployment', 'RecordFetchedFile', 'RecordEngineState'] as const satisfies readonly ComposeCommand['type'][];

function update(compose: Compose, patch: ComposePatch): ComposeEvent[] {
  return updated('ComposeUpdated', ID, compose.composeId, compose, mustStayDeployable(compose, patch));
}

function randomize(compose: Compose, suffix: string): ComposeEvent[] {
  if (!SUFFIX.test(suffix)) throw badRequest('prefix', 'must be 1 to 63 letters, digits, "_", "." or "-", ending with a letter or digit');
  const composeFile = randomizeComposeFile(compose.composeFile, suffix);
  // Longer names: a stack's may grow past what the engine takes.
  if (composeFile !== compose.composeFile) mustDeployAsAStack({ ...compose, composeFile });
  return composeFile === compose.composeFile ? [] : [{ type: 'ComposeRandomized', data: { composeId: compose.composeId, suffix, composeFile } }];
}

function actionOutcome(state: Compose | null, data: ActionRequest & ActionOutcome): ComposeEvent[] {
  if (state === null) return []; // deleted meanwhile
  const { request, reason, status: composeStatus } = settleAction(data, state.composeStatus);
  return reason === null
    ? [{ type: 'ComposeActionSucceeded', data: { ...request, composeStatus } }]
    : [{ type: 'ComposeActionFailed', data: { ...request, reason, composeStatus } }];
}

/** What a fetch found, recorded when it differs from the last one; nothing once the service is deleted. */
function fileFetched(state: Compose | null, { composeId, services, ports }: FetchedFile): ComposeEvent[] {
  if (state === null || changes(state, { fetchedServices: services, publishedPorts: ports }) === null) return [];
  return [{ type: 'ComposeFileFetched', data: { composeId, services: [...services], ports: [...ports] } }];
}

export const composeAggregate: Aggregate<Compose & BeingRemoved & Drifted, ComposeCommand, ComposeEvent> = {
  name: 'compose',
  idField: ID,
  label: LABEL,
  hidden: ['sshPrivateKey'],
  volatile: ['composeStatus', 'engineDrift'],
  evolve(state, event) {
    switch (event.type) {
      case 'ComposeCreated': return { ...event.data };
      case 'ComposeUpdated':
      case 'ComposeSSHKeyGenerated':
      case 'ComposeTokenRefreshed': return state && { ...state, ...event.data };
      case 'ComposeSSHKeyRemoved': return state && { ...state, customGitSSHKey: null, sshPrivateKey: null };
      case 'ComposeRandomized': return state && { ...state, composeFile: event.data.composeFile };
      case 'ComposeRemoved': return null;
      case 'ComposeRemovalBegun': return state && { ...state, removingFrom: event.data.projectId };
      case 'ComposeActionRequested': return state;
      case 'ComposeActionSucceeded':
      case 'ComposeActionFailed':
      case 'ComposeStatusChanged':
        return state && withStatus(state, 'composeStatus', event.data.composeStatus);
      case 'ComposeEngineChanged': return state && afterEngineChange(state, 'composeStatus', event.data.seen, event.data.composeStatus);
      case 'ComposeFileFetched': return state && { ...state, fetchedServices: event.data.services, publishedPorts: event.data.ports };
      default: return exhaustive(event);
    }
  },
  decide(command, state) {
    mustNotBeBeingRemoved(state, command.type, STILL, ID, LABEL);
    switch (command.type) {
      case 'CreateCompose':
        mustNotExist(state, LABEL, ID);
        mustDeployAsAStack(command.data); // a template's file
        return [{ type: 'ComposeCreated', data: command.data }];
      case 'UpdateCompose': return update(mustExist(state, ID, LABEL), command.data);
      case 'GenerateComposeSSHKey':
        mustExist(state, ID, LABEL);
        return [{ type: 'ComposeSSHKeyGenerated', data: command.data }];
      case 'RemoveComposeSSHKey': {
        const compose = mustExist(state, ID, LABEL);
        const hasKey = compose.customGitSSHKey !== null || compose.sshPrivateKey !== null;
        return hasKey ? [{ type: 'ComposeSSHKeyRemoved', data: command.data }] : [];
      }
      case 'RefreshComposeToken':
        mustExist(state, ID, LABEL);
        return [{ type: 'ComposeTokenRefreshed', data: command.data }];
      case 'RandomizeCompose': return randomize(mustExist(state, ID, LABEL), command.data.suffix);
      case 'RemoveCompose':
        mustExist(state, ID, LABEL);
        return [{ type: 'ComposeRemoved', data: command.data }];
      case 'BeginRemoval': return beginRemoval('ComposeRemovalBegun', state, command.data, ID, LABEL);
      case 'RequestAction':
        mustBeActionable(command.data.action, mustExist(state, ID, LABEL).composeStatus, ID);
        return [{ type: 'ComposeActionRequested', data: command.data }];
      case 'RecordActionOutcome': return actionOutcome(state, command.data);
      case 'FollowDeployment': {
        if (state === null) return []; // deleted while its deployment ran
        const { composeId, deploymentId, step, statusBefore } = command.data;
        const composeStatus = statusFollowing(step, statusBefore, state.composeStatus);
        return composeStatus === null ? [] : [{ type: 'ComposeStatusChanged', data: { composeId, deploymentId, composeStatus } }];
      }
      case 'RecordFetchedFile': return fileFetched(state, command.data);
      case 'RecordEngineState': {
        if (state === null || state.removingFrom !== undefined) return []; // its removal takes it off the engine
        const composeStatus = statusSeen(command.data.seen, state.composeStatus, state.engineDrift !== undefined);
        return composeStatus === null ? [] : [{ type: 'ComposeEngineChanged', data: { ...command.data, composeStatus } }];
      }
      default: return exhaustive(command);
    }
  },
};
