// The kinds of service a project holds, each with the key its list has in a project's answer.
import { ENGINES } from '../contract/databases.ts';
import type { AnyAggregate } from './aggregate.ts';
import { applicationAggregate } from './application/application.ts';
import { composeAggregate } from './compose/compose.ts';
import { databaseAggregates } from './database/database.ts';

export interface ServiceKindOfProject {
  /** Key of the list in a project's answer. */
  readonly key: string;
  readonly aggregate: AnyAggregate;
}

export const SERVICE_KINDS: readonly ServiceKindOfProject[] = [
  { key: 'applications', aggregate: applicationAggregate },
  { key: 'compose', aggregate: composeAggregate },
  ...ENGINES.map((engine) => ({ key: engine, aggregate: databaseAggregates[engine] })),
];

/** The read model of every service's summary, one document per service, found by `projectId`. */
export const SERVICE_SUMMARIES = 'serviceSummary';
