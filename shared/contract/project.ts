import { Type } from '@sinclair/typebox';
import { ENGINES } from './databases.ts';
import { group, get, none, post } from './operation.ts';
import { ApplicationSummary, ComposeSummary, ProjectRecord, databaseSummary } from './records.ts';
import { Closed, MinStr, OptNull, Str } from './schema.ts';

/** A project with its services, by kind: the dashboard's answer. */
export const ProjectWithServices = Closed({
  ...ProjectRecord.properties,
  applications: Type.Array(ApplicationSummary),
  compose: Type.Array(ComposeSummary),
  ...Object.fromEntries(ENGINES.map((engine) => [engine, Type.Array(databaseSummary(`${engine}Id`))])),
});

export const project = group('project', {
  create: post(Closed({ name: MinStr(), description: OptNull(Str()) }), ProjectRecord),
  one: get(Closed({ projectId: MinStr() }), ProjectWithServices),
  all: get(none, Type.Array(ProjectWithServices)),
  remove: post(Closed({ projectId: MinStr() }), ProjectRecord),
  update: post(Closed({ name: MinStr(), description: OptNull(Str()), projectId: MinStr() }), ProjectRecord),
});
