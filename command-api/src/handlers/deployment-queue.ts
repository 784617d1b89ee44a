// Queueing a deployment, and waiting for what the reactors report: shared by the application's
// deploy operations, the deployment group and the push webhook.
import { applicationAggregate } from '@berth/shared/domain/application/application';
import type { Application } from '@berth/shared/domain/application/record';
import {
  deploymentAggregate, newDeployment, type Deployment, type NewDeployment,
} from '@berth/shared/domain/deployment/deployment';
import { badRequest } from '@berth/shared/errors';
import type { RecordedEvent } from '@berth/shared/events/event';
import { streamName } from '@berth/shared/events/event';
import { newId } from '@berth/shared/ids';
import type { Context } from '../context.ts';

/** What a deployment of this application needs set before it can start: BAD_REQUEST naming the field. */
export function mustHaveSource(application: Application): void {
  const needed: Record<Application['sourceType'], Array<keyof Application>> = {
    container: ['containerImage'],
    git: ['customGitUrl'],
    forge: ['repository', 'owner'],
  };
  for (const field of needed[application.sourceType]) {
    if (!application[field]) throw badRequest(field, `set the ${application.sourceType} source's ${field} before deploying`);
  }
}

type Request = Pick<NewDeployment, 'kind' | 'title' | 'trigger' | 'image' | 'rollbackOf'>;

/** Queues a deployment of the application: answers the queued record. */
export async function queueDeployment(ctx: Context, applicationId: string, request: Request) {
  const application = await ctx.mustLoad(applicationAggregate, applicationId, 'applicationId');
  if (request.kind !== 'rollback') mustHaveSource(application);
  return queueFor(ctx, { applicationId, composeId: null }, request);
}

/** Queues a deployment of the service (checked by the caller): answers the queued record. */
export async function queueFor(ctx: Context, service: Pick<NewDeployment, 'applicationId' | 'composeId' | 'databaseId' | 'databaseType'>, request: Request) {
  const data: Deployment = newDeployment({
    ...request, deploymentId: newId(), ...service,
    accountId: request.trigger === 'account' ? ctx.actor?.id ?? null : null, createdAt: ctx.now,
  });
  const { after } = await ctx.execute(deploymentAggregate, data.deploymentId, { type: 'QueueDeployment', data });
  return ctx.view(deploymentAggregate, after);
}

const POLL_MS = 50;

/**
 * Waits (bounded) for an event of `stream` after `after` that `matches`; it moves the answer's
 * read-your-writes position to it. Null when the bound passed first.
 */
export async function waitForEvent(ctx: Context, aggregate: string, id: string, after: number,
  matches: (event: RecordedEvent) => boolean): Promise<RecordedEvent | null> {
  const deadline = Date.now() + ctx.infra.config.actionWaitMs;
  const stream = streamName(aggregate, id);
  for (;;) {
    const { events } = await ctx.infra.eventStore.readStream(stream);
    const found = events.find((event) => event.position > after && matches(event));
    if (found) {
      ctx.position = Math.max(ctx.position, found.position);
      return found;
    }
    if (Date.now() >= deadline) return null;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
