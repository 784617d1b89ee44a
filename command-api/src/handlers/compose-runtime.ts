// The compose operations the reactors carry out, through the same deployment records, queue and
// actions as applications: deploy and redeploy answer at once with the queued deployment; stop
// answers once the engine did it (bounded wait).
import type { contract } from '@berth/shared/contract/index';
import type { AnyAggregate } from '@berth/shared/domain/aggregate';
import { composeAggregate, type Compose } from '@berth/shared/domain/compose/compose';
import type { NewDeployment } from '@berth/shared/domain/deployment/deployment';
import { badRequest } from '@berth/shared/errors';
import type { Context } from '../context.ts';
import { act, cleanQueues } from './application-runtime.ts';
import { queueFor } from './deployment-queue.ts';
import type { GroupHandlers } from './kit.ts';

const compose = composeAggregate as AnyAggregate;

/** What a deployment needs set before it can start: BAD_REQUEST naming the field. */
function mustHaveSource(record: Compose): void {
  const needed: Record<Compose['sourceType'], Array<keyof Compose>> = {
    raw: ['composeFile'],
    git: ['customGitUrl'],
    forge: ['repository', 'owner'],
  };
  for (const field of needed[record.sourceType]) {
    if (!record[field]) throw badRequest(field, `set the ${record.sourceType} source's ${field} before deploying`);
  }
}

type Request = Pick<NewDeployment, 'title' | 'trigger'> & { kind: 'deploy' | 'redeploy' };

/** Queues a deployment of the compose service: answers the queued record. */
export async function queueComposeDeployment(ctx: Context, composeId: string, request: Request) {
  mustHaveSource(await ctx.mustLoad(composeAggregate, composeId, 'composeId'));
  return queueFor(ctx, { applicationId: null, composeId }, { ...request, image: null, rollbackOf: null });
}

export const composeRuntime: GroupHandlers<typeof contract.compose> = {
  deploy: (input, ctx) => queueComposeDeployment(ctx, input.composeId, { kind: 'deploy', title: 'Deploy', trigger: 'account' }),
  redeploy: (input, ctx) => queueComposeDeployment(ctx, input.composeId, { kind: 'redeploy', title: 'Redeploy', trigger: 'account' }),
  stop: (input, ctx) => act(compose, 'stop', input.composeId, ctx),
  cleanQueues: (input, ctx) => cleanQueues(compose, input.composeId, ctx),
};
