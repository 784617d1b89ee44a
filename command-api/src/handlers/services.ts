// The kinds of service a project holds: how each is listed in its project and removed with it.
import { SERVICE_KINDS, SERVICE_SUMMARIES, type ServiceKindOfProject } from '@berth/shared/domain/service-kinds';
import type { Doc } from '@berth/shared/ports/read-store';
import { newestFirst, type Context } from '../context.ts';
import { removeApplication } from './application.ts';
import { removeCompose } from './compose.ts';
import { removeDatabase } from './database.ts';
import type { Engine } from '@berth/shared/contract/databases';

export interface ServiceKind extends ServiceKindOfProject {
  /** Removes one service with its children, as its own delete operation does. */
  readonly remove: (id: string, ctx: Context) => Promise<unknown>;
}

const REMOVALS: Record<string, ServiceKind['remove']> = { applications: removeApplication, compose: removeCompose };

export const serviceKinds: ServiceKind[] = SERVICE_KINDS.map((kind) => ({
  ...kind, remove: REMOVALS[kind.key] ?? ((id, ctx) => removeDatabase(kind.key as Engine, id, ctx)),
}));


const KIND_OF = new Map(SERVICE_KINDS.map((kind) => [kind.key, kind]));

/** Summaries grouped by kind, newest first; a user sees only the services in its access list. */
function byKind(summaries: readonly Doc[], ctx: Context): Record<string, Doc[]> {
  const lists: Record<string, Doc[]> = {};
  for (const kind of SERVICE_KINDS) lists[kind.key] = [];
  for (const summary of summaries) {
    const kind = KIND_OF.get(String(summary.kind))!;
    if (ctx.canSeeService(String(summary[kind.aggregate.idField]))) lists[kind.key]!.push(summary);
  }
  if (summaries.length > 1) for (const kind of SERVICE_KINDS) lists[kind.key]!.sort(newestFirst);
  return lists;
}

/** A project with its services, from the summaries' read model. */
export async function withServices(project: Doc, ctx: Context): Promise<Doc> {
  return { ...project, ...byKind(await ctx.infra.readStore.find(SERVICE_SUMMARIES, 'projectId', String(project.projectId)), ctx) };
}

/** Every project with its services: one scan of the summaries for them all. */
export async function allWithServices(projects: readonly Doc[], ctx: Context): Promise<Doc[]> {
  const ofProject = new Map<string, Doc[]>();
  for (const summary of await ctx.infra.readStore.all(SERVICE_SUMMARIES)) {
    const projectId = String(summary.projectId);
    let list = ofProject.get(projectId);
    if (!list) ofProject.set(projectId, (list = []));
    list.push(summary);
  }
  return projects.map((project) => ({ ...project, ...byKind(ofProject.get(String(project.projectId)) ?? [], ctx) }));
}
