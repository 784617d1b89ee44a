import type { contract } from '@berth/shared/contract/index';
import { projectAggregate } from '@berth/shared/domain/project/project';
import type { Context } from '../context.ts';
import { change, removal, type GroupHandlers } from './kit.ts';
import { allWithServices, serviceKinds, withServices } from './services.ts';

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
  remove: async (input, ctx) => {
    await ctx.mustLoad(projectAggregate, input.projectId, 'projectId');
    // Services go first, each with its children, so a failure part-way leaves a smaller but whole project.
    for (const kind of serviceKinds) {
      for (const service of await ctx.list(kind.aggregate, 'projectId', input.projectId)) {
        await kind.remove(String(service[kind.aggregate.idField]), ctx);
      }
    }
    return removal(projectAggregate, () => ({ type: 'RemoveProject', data: { projectId: input.projectId } }))(input, ctx);
  },
};
