import type { contract } from '@berth/shared/contract/index';
import { projectAggregate } from '@berth/shared/domain/project/project';
import { forbidden } from '@berth/shared/errors';
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
    const services = (await Promise.all(serviceKinds.map(async (kind) =>
      (await ctx.list(kind.aggregate, 'projectId', input.projectId)).map((service) => ({ kind, id: String(service[kind.aggregate.idField]) }))))).flat();
    // Its services go with the project: the caller needs the right to delete each one, seen or not.
    if (!services.every(({ id }) => ctx.canDeleteService(id))) {
      throw forbidden('This project holds services this account may not delete');
    }
    // Services go first, each with its children, so a failure part-way leaves a smaller but whole project.
    for (const { kind, id } of services) await kind.remove(id, ctx);
    return removal(projectAggregate, () => ({ type: 'RemoveProject', data: { projectId: input.projectId } }))(input, ctx);
  },
};
