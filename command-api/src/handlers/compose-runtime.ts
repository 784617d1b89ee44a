// The compose operations the reactors carry out, through the same deployment records, queue and
// actions as applications: deploy and redeploy answer at once with the queued deployment; stop
// answers once the engine did it (bounded wait).
import type { contract } from '@berth/shared/contract/index';
import type { AnyAggregate } from '@berth/shared/domain/aggregate';
import { composeAggregate, type Compose } from '@berth/shared/domain/compose/compose';
import type { NewDeployment } from '@berth/shared/domain/deployment/deployment';
import type { Context } from '../context.ts';
import { act, cleanQueues } from './application-runtime.ts';
import { mustHaveSource, queueFor, type SourceNeeds } from './deployment-queue.ts';
import type { GroupHandlers } from './kit.ts';

const compose = composeAggregate as AnyAggregate;

const COMPOSE_SOURCE: SourceNeeds<Compose> = {
  raw: ['composeFile'],
  git: ['customGitUrl'],
  forge: ['repository', 'owner'],
};

type Request = Pick<NewDeployment, 'title' | 'trigger'> & { kind: 'deploy' | 'redeploy' };

/** Queues a deployment of the compose service: answers the queued record. */
export async function queueComposeDeployment(ctx: Context, composeId: string, request: Request) {
  mustHaveSource(await ctx.mustLoad(composeAggregate, composeId, 'composeId'), COMPOSE_SOURCE, 'compose.update sets sourceType and its fields');
  return queueFor(ctx, { applicationId: null, composeId }, { ...request, image: null, rollbackOf: null });
}

export const composeRuntime: GroupHandlers<typeof contract.compose> = {
  deploy: (input, ctx) => queueComposeDeployment(ctx, input.composeId, { kind: 'deploy', title: 'Deploy', trigger: 'account' }),
  redeploy: (input, ctx) => queueComposeDeployment(ctx, input.composeId, { kind: 'redeploy', title: 'Redeploy', trigger: 'account' }),
  stop: (input, ctx) => act(compose, 'stop', input.composeId, ctx),
  cleanQueues: (input, ctx) => cleanQueues(compose, input.composeId, ctx),
};
