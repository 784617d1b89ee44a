// The kinds of service a project holds, each with the key its list has in a project's answer.
import { ENGINES } from '../contract/databases.ts';
import type { AnyAggregate } from './aggregate.ts';
import { applicationAggregate } from './application/application.ts';
import { composeAggregate } from './compose/compose.ts';
import { databaseAggregates, eventTypeOf } from './database/database.ts';

export interface ServiceKindOfProject {
  /** Key of the list in a project's answer. */
  readonly key: string;
  readonly aggregate: AnyAggregate;
  /** The event that asks the reactors for a start, stop or reload, answered by one carrying its `requestId`. */
  readonly actionRequested: string;
  /** The service's last event: it is gone. */
  readonly removed: string;
}

export const SERVICE_KINDS: readonly ServiceKindOfProject[] = [
  { key: 'applications', aggregate: applicationAggregate, actionRequested: 'ApplicationActionRequested', removed: 'ApplicationDeleted' },
  { key: 'compose', aggregate: composeAggregate, actionRequested: 'ComposeActionRequested', removed: 'ComposeRemoved' },
  ...ENGINES.map((engine) => ({
    key: engine, aggregate: databaseAggregates[engine], actionRequested: eventTypeOf(engine, 'ActionRequested'), removed: eventTypeOf(engine, 'Removed'),
  })),
];

/** The kind whose records `aggregate` keeps. */
export function serviceKindOf(aggregate: AnyAggregate): ServiceKindOfProject {
  const kind = SERVICE_KINDS.find((candidate) => candidate.aggregate.name === aggregate.name);
  if (!kind) throw new Error(`${aggregate.name} is not a kind of service`);
  return kind;
}

/** The read model of every service's summary, one document per service, found by `projectId`. */
export const SERVICE_SUMMARIES = 'serviceSummary';

/** The read model of the services with an action asked and not answered yet, one document per service. */
export const PENDING_ACTIONS = 'pendingActions';

/** The action request an event names: the request itself, or its outcome. */
export const requestIdOf = (event: { readonly data: unknown }): unknown => (event.data as { requestId?: unknown }).requestId;

/** Whether `event` answers the request `requestId`: any event naming it but the request. */
export const answersRequest = (event: { readonly type: string; readonly data: unknown }, requestId: unknown): boolean =>
  requestIdOf(event) === requestId && !event.type.endsWith('ActionRequested');
