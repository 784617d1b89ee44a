import type { contract } from '@berth/shared/contract/index';
import { projectAggregate } from '@berth/shared/domain/project/project';
import type { AnyAggregate } from '@berth/shared/domain/aggregate';
import { DomainError, forbidden } from '@berth/shared/errors';
import type { Context } from '../context.ts';
import { change, removal, type GroupHandlers } from './kit.ts';
import { allWithServices, serviceKinds, withServices } from './services.ts';
import { retireWithDependents, type DependentKind } from './cascade.ts';
import { PROJECT_USE } from './project-use.ts';

/** Its services go with the project: the caller needs the right to delete each one, seen or not. */
const mayRemove = (serviceIds: readonly string[], ctx: Context) => {
  if (!serviceIds.every((id) => ctx.canDeleteService(id))) throw forbidden('This project holds services this account may not delete');
};

/**
 * Begins a service's removal from the project in its own stream: false, appending nothing, when the
 * log says it is no longer there (moved out, or removed, meanwhile).
 */
async function beginRemovalFrom(ctx: Context, aggregate: AnyAggregate, id: string, projectId: string): Promise<boolean> {
  try {
    await ctx.execute(aggregate, id, { type: 'BeginRemoval', data: { [aggregate.idField]: id, projectId } });
    return true;
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    // Whatever the refusal says, the service read afresh tells whether it left; if not, the refusal stands.
    ctx.forget(aggregate, id);
    const { state } = await ctx.load(aggregate, id);
    if (state === null || (state as { projectId?: unknown }).projectId !== projectId) return false;
    throw error;
  }
}

/**
 * The kinds of service, each removed only once its removal has begun from this project: one that
 * moved out meanwhile is left alone (its move lets go of the project), and once begun, no move lands.
 */
const leaving = (projectId: string): DependentKind[] => serviceKinds.map((kind) => ({
  aggregate: kind.aggregate,
  remove: async (id, ctx) => {
    if (await beginRemovalFrom(ctx, kind.aggregate, id, projectId)) await kind.remove(id, ctx);
  },
}));

const accessible = (projects: Record<string, unknown>[], ctx: Context) =>
  projects.filter((project) => ctx.canSeeProject(String(project.projectId)));

export const project: GroupHandlers<typeof contract.project> = {
  create: change(projectAggregate, (input, ctx) => ({
    type: 'CreateProject',
    data: { projectId: ctx.newId(projectAggregate), name: input.name, description: input.description ?? null, createdAt: ctx.now },
  })),
  one: async (input, ctx) => withServices(await ctx.one(projectAggregate, input.projectId), ctx),
  all: async (_input, ctx) => allWithServices(accessible(await ctx.list(projectAggregate), ctx), ctx),
  update: change(projectAggregate, (input) => ({
    type: 'UpdateProject',
    data: { projectId: input.projectId, name: input.name, ...(input.description !== undefined && { description: input.description }) },
  })),
  remove: (input, ctx) => removeProject(input.projectId, ctx),
};

/** Removes a project as `project.remove` does (and as the start finishes one retired but still there). */
export async function removeProject(projectId: string, ctx: Context): Promise<unknown> {
  await ctx.mustLoad(projectAggregate, projectId, 'projectId');
  // Services go first, each with its children, so a failure part-way leaves a smaller but whole
  // project; retired after them, the project takes no service created or moved into it meanwhile.
  await retireWithDependents(ctx, 'project', projectId, PROJECT_USE, 'is still being given services; try again', {
    kinds: leaving(projectId), field: 'projectId', mayRemove,
  });
  return removal(projectAggregate, () => ({ type: 'RemoveProject', data: { projectId } }))({ projectId }, ctx);
}
