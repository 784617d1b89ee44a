// One decider for the five database engines: they differ only in their name, id field and
// credential fields, so each engine's aggregate is this factory applied to its name.
import { ENGINES, type Engine } from '../../contract/databases.ts';
import type { Status } from '../../contract/schema.ts';
import type { Sealed } from '../../crypto/secrets.ts';
import type { Aggregate } from '../aggregate.ts';
import { exhaustive } from '../aggregate.ts';
import { mustExist, mustNotExist, updated } from '../decisions.ts';
import { beginRemoval, mustNotBeBeingRemoved, type BeginRemoval, type BeingRemoved } from '../removal.ts';
import { mustBeActionable, settleAction, statusFollowing, type Action, type ActionOutcome, type DeploymentStep } from '../application/status.ts';
import { afterEngineChange, statusSeen, withStatus, type Drifted, type EngineSight } from '../application/engine-drift.ts';

export type DatabaseIdField = `${Engine}Id`;
/** The record's id under its engine's id field (`dbalphaId`, ...). */
export type DatabaseKey = Partial<Record<DatabaseIdField, string>>;

export interface DatabaseFields {
  name: string;
  appName: string;
  description: string | null;
  containerImage: string;
  command: string | null;
  env: string | null;
  memoryReservation: number | null;
  memoryLimit: number | null;
  cpuReservation: number | null;
  cpuLimit: number | null;
  externalPort: number | null;
  applicationStatus: Status;
  createdAt: string;
  projectId: string;
}

/** The credential fields; which of them an engine has is `credentialFields(engine)`. Passwords are sealed. */
export interface Credentials {
  databaseName?: string;
  databaseUser?: string;
  databasePassword?: Sealed;
  databaseRootPassword?: Sealed;
}

export type Database = DatabaseFields & Credentials & DatabaseKey;
export type DatabasePatch = DatabaseKey & Partial<Omit<DatabaseFields, 'createdAt'> & Credentials>;

export type DatabaseCommand =
  | { type: 'CreateDatabase'; data: Database }
  | { type: 'UpdateDatabase'; data: DatabasePatch }
  | { type: 'ChangeDatabaseStatus'; data: DatabaseKey & { applicationStatus: Status } }
  /** Reported by the deployer: its deployment's step moves the status (statusFollowing). */
  | { type: 'FollowDeployment'; data: DatabaseKey & { step: DeploymentStep; statusBefore: Status | null } }
  | { type: 'RemoveDatabase'; data: DatabaseKey }
  | BeginRemoval<DatabaseKey>
  /** start, stop, reload: asked of the reactors, which report the outcome. */
  | { type: 'RequestAction'; data: ActionRequest }
  | { type: 'RecordActionOutcome'; data: ActionRequest & ActionOutcome }
  /** Reported by the engine watch: what the engine shows of the database's service, read in its turn (engine-drift.ts). */
  | { type: 'RecordEngineState'; data: DatabaseKey & { seen: EngineSight } };

type ActionRequest = DatabaseKey & { action: Action; requestId: string };

/** Event types name their engine (`DbalphaCreated`), so the log and the bus say what changed. */
type EventOf<K extends string, D> = { type: `${Capitalize<Engine>}${K}`; data: D };
export type DatabaseEvent =
  | EventOf<'Created', Database>
  | EventOf<'Updated', DatabasePatch>
  | EventOf<'StatusChanged', DatabaseKey & { applicationStatus: Status }>
  | EventOf<'Removed', DatabaseKey>
  | EventOf<'RemovalBegun', DatabaseKey & { projectId: string }>
  | EventOf<'ActionRequested', ActionRequest>
  | EventOf<'ActionSucceeded', ActionRequest & { applicationStatus: Status }>
  | EventOf<'ActionFailed', ActionRequest & { reason: string; applicationStatus: Status; unavailable?: true }>
  | EventOf<'EngineChanged', DatabaseKey & { seen: EngineSight; applicationStatus: Status }>;

/** What a database being removed still decides: its removal, and the reports of work started before. */
const STILL = ['BeginRemoval', 'RemoveDatabase', 'RecordActionOutcome', 'ChangeDatabaseStatus', 'FollowDeployment', 'RecordEngineState'] as const satisfies readonly DatabaseCommand['type'][];

export type DatabaseAggregate = Aggregate<Database & BeingRemoved & Drifted, DatabaseCommand, DatabaseEvent>;

export const idFieldOf = (engine: Engine): DatabaseIdField => `${engine}Id`;

/** An engine's event type: `eventTypeOf('dbalpha', 'Created')` is `DbalphaCreated`. */
export const eventTypeOf = <K extends string>(engine: Engine, kind: K) =>
  `${engine.charAt(0).toUpperCase()}${engine.slice(1)}${kind}` as `${Capitalize<Engine>}${K}`;

export function databaseAggregate(engine: Engine): DatabaseAggregate {
  const idField = idFieldOf(engine);
  const label = `${engine} database`;
  const type = <K extends string>(kind: K) => eventTypeOf(engine, kind);
  const types = {
    created: type('Created'), updated: type('Updated'), statusChanged: type('StatusChanged'), removed: type('Removed'), removalBegun: type('RemovalBegun'),
    actionRequested: type('ActionRequested'), actionSucceeded: type('ActionSucceeded'), actionFailed: type('ActionFailed'),
    engineChanged: type('EngineChanged'),
  } as const;
  const is = <K extends string>(kind: K) =>
    (event: DatabaseEvent): event is Extract<DatabaseEvent, EventOf<K, unknown>> => (event.type as string) === type(kind);
  const idOf = (record: DatabaseKey) => record[idField] ?? '';

  return {
    name: engine,
    idField,
    label,
    volatile: ['applicationStatus', 'engineDrift'],
    evolve(state, event) {
      if (is('Created')(event)) return { ...event.data };
      if (is('Updated')(event)) return state && { ...state, ...event.data };
      if (is('StatusChanged')(event)) return state && withStatus(state, 'applicationStatus', event.data.applicationStatus);
      if (is('EngineChanged')(event)) return state && afterEngineChange(state, 'applicationStatus', event.data.seen, event.data.applicationStatus);
      if (is('Removed')(event)) return null;
      if (is('RemovalBegun')(event)) return state && { ...state, removingFrom: event.data.projectId };
      if (is('ActionRequested')(event)) return state;
      if (is('ActionSucceeded')(event) || is('ActionFailed')(event)) return state && withStatus(state, 'applicationStatus', event.data.applicationStatus);
      return exhaustive(event);
    },
    decide(command, state) {
      mustNotBeBeingRemoved(state, command.type, STILL, idField, label);
      switch (command.type) {
        case 'CreateDatabase':
          mustNotExist(state, label, idField);
          return [{ type: types.created, data: command.data }];
        case 'UpdateDatabase': {
          const database = mustExist(state, idField, label);
          return updated(types.updated, idField, idOf(database), database, command.data);
        }
        case 'ChangeDatabaseStatus': {
          const database = mustExist(state, idField, label);
          return database.applicationStatus === command.data.applicationStatus
            ? [] : [{ type: types.statusChanged, data: command.data }];
        }
        case 'FollowDeployment': {
          if (state === null) return []; // removed while its deployment ran
          const { step, statusBefore, ...key } = command.data;
          const applicationStatus = statusFollowing(step, statusBefore, state.applicationStatus);
          return applicationStatus === null ? [] : [{ type: types.statusChanged, data: { ...key, applicationStatus } as DatabaseKey & { applicationStatus: Status } }];
        }
        case 'RemoveDatabase':
          mustExist(state, idField, label);
          return [{ type: types.removed, data: command.data }];
        case 'BeginRemoval': return beginRemoval(types.removalBegun, state, command.data, idField, label);
        case 'RequestAction':
          mustBeActionable(command.data.action, mustExist(state, idField, label).applicationStatus, idField);
          return [{ type: types.actionRequested, data: command.data }];
        case 'RecordActionOutcome': {
          if (state === null) return []; // removed meanwhile
          const { request, reason, status: applicationStatus } = settleAction(command.data, state.applicationStatus);
          return reason === null
            ? [{ type: types.actionSucceeded, data: { ...request, applicationStatus } }]
            : [{ type: types.actionFailed, data: { ...request, reason, applicationStatus } }];
        }
        case 'RecordEngineState': {
          if (state === null || state.removingFrom !== undefined) return []; // its removal takes it off the engine
          const applicationStatus = statusSeen(command.data.seen, state.applicationStatus, state.engineDrift !== undefined);
          return applicationStatus === null ? [] : [{ type: types.engineChanged, data: { ...command.data, applicationStatus } }];
        }
        default: return exhaustive(command);
      }
    },
  };
}

/** The aggregate of each engine. */
export const databaseAggregates = Object.fromEntries(
  ENGINES.map((engine) => [engine, databaseAggregate(engine)]),
) as Record<Engine, DatabaseAggregate>;
