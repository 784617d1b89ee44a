// A service counts among its project's users in the log from its creation (or its move there) to
// its removal: a project being removed takes the services created in it meanwhile with it, and a
// service created in (or moved to) a project already gone is refused, NOT_FOUND naming projectId.
import { projectAggregate } from '@berth/shared/domain/project/project';
import type { Context } from '../context.ts';
import { createUser, moveUse, mustBeUsable, stopUsing } from './reservations.ts';

export const PROJECT_USE = { label: 'Project', field: 'projectId', users: 'service(s)' } as const;

/** Creates a service in an existing project, which counts it among its users once written (see createUser). */
export async function inProject<T>(
  ctx: Context, projectId: string, serviceId: string, create: () => Promise<T>, remove: () => Promise<unknown>,
): Promise<T> {
  await ctx.mustLoad(projectAggregate, projectId, 'projectId');
  return createUser(ctx, 'project', projectId, serviceId, PROJECT_USE, create, remove);
}

/** Applies an update that may move a service to another project (undefined: it stays), checked with mayMoveTo first. */
export const movingProject = <T>(ctx: Context, current: string, next: string | undefined, serviceId: string, apply: () => Promise<T>): Promise<T> =>
  moveUse(ctx, 'project', current, next, serviceId, PROJECT_USE, apply);

/** Refuses now, appending nothing, a service joining a project that does not exist or is being removed. */
export async function mayJoin(ctx: Context, projectId: string, serviceId: string): Promise<void> {
  await ctx.mustLoad(projectAggregate, projectId, 'projectId');
  await mustBeUsable(ctx, 'project', projectId, serviceId, PROJECT_USE);
}

/** Refuses now, appending nothing, a move to a project that does not exist or is being removed. */
export async function mayMoveTo(ctx: Context, current: string, next: string | undefined, serviceId: string): Promise<void> {
  // References are checked when they change: a record sent back as it was is not refused.
  if (next !== undefined && next !== current) await mayJoin(ctx, next, serviceId);
}

export const leaveProject = (ctx: Context, projectId: string, serviceId: string) => stopUsing(ctx, 'project', projectId, serviceId);
