// The kinds of service a project holds: how each is listed and removed with its project.
import type { AnyAggregate } from '@berth/shared/domain/aggregate';
import type { Context } from '../context.ts';
import { applicationAggregate } from '@berth/shared/domain/application/application';
import { removeApplication } from './application.ts';
import { composeAggregate } from '@berth/shared/domain/compose/compose';
import { removeCompose } from './compose.ts';
import { databaseServiceKinds } from './database.ts';

export interface ServiceKind {
  /** Key of the list in a project's answer. */
  readonly key: string;
  readonly aggregate: AnyAggregate;
  /** Removes one service with its children, as its own delete operation does. */
  readonly remove: (id: string, ctx: Context) => Promise<unknown>;
}

export const serviceKinds: ServiceKind[] = [
  { key: 'applications', aggregate: applicationAggregate, remove: removeApplication },
  { key: 'compose', aggregate: composeAggregate, remove: removeCompose }, ...databaseServiceKinds,
];

/** The services of a project, by kind. */
export async function servicesOf(projectId: string, ctx: Context): Promise<Record<string, unknown[]>> {
  const lists = await Promise.all(serviceKinds.map((kind) => ctx.list(kind.aggregate, 'projectId', projectId)));
  // A user sees only the services in its access list.
  const visible = (kind: ServiceKind, list: Record<string, unknown>[]) =>
    list.filter((service) => ctx.canSeeService(String(service[kind.aggregate.idField])));
  return Object.fromEntries(serviceKinds.map((kind, i) => [kind.key, visible(kind, lists[i]!)]));
}
