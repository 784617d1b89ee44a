// The kinds of service a project holds: how each is listed and removed with its project.
import type { AnyAggregate } from '@berth/shared/domain/aggregate';
import type { Context } from '../context.ts';

export interface ServiceKind {
  /** Key of the list in a project's answer. */
  readonly key: string;
  readonly aggregate: AnyAggregate;
  /** Removes one service with its children, as its own delete operation does. */
  readonly remove: (id: string, ctx: Context) => Promise<unknown>;
}

export const serviceKinds: ServiceKind[] = [];

/** The services of a project, by kind. */
export async function servicesOf(projectId: string, ctx: Context): Promise<Record<string, unknown[]>> {
  const lists = await Promise.all(serviceKinds.map((kind) => ctx.list(kind.aggregate, 'projectId', projectId)));
  return Object.fromEntries(serviceKinds.map((kind, i) => [kind.key, lists[i]!]));
}
