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
import type { Context } from '../context.ts';

/** What a service's source needs set, per source type, before a deployment of it can start. */
export type SourceNeeds<R extends { sourceType: string }> = Record<R['sourceType'], ReadonlyArray<keyof R & string>>;

/** BAD_REQUEST naming the first field the service's source still lacks, and how a source is chosen (`choose`). */
export function mustHaveSource<R extends { sourceType: string }>(record: R, needed: SourceNeeds<R>, choose: string): void {
  const type = record.sourceType as R['sourceType'];
  for (const field of needed[type]) {
    if (!record[field]) throw badRequest(field, `must be set on the ${record.sourceType} source before deploying (${choose})`);
  }
}

const APPLICATION_SOURCE: SourceNeeds<Application> = {
  container: ['containerImage'],
  git: ['customGitUrl'],
  forge: ['repository', 'owner'],
};

type Request = Pick<NewDeployment, 'kind' | 'title' | 'trigger' | 'image' | 'rollbackOf'>;

/** Queues a deployment of the application: answers the queued record. */
export async function queueDeployment(ctx: Context, applicationId: string, request: Request) {
  const application = await ctx.mustLoad(applicationAggregate, applicationId, 'applicationId');
  if (request.kind !== 'rollback') {
    // A new application's source is a forge repository until one is saved: what a first deploy meets.
    mustHaveSource(application, APPLICATION_SOURCE, 'saveContainerProvider, saveGitProdiver or saveForgeProvider sets the source an application deploys from');
  }
  return queueFor(ctx, { applicationId, composeId: null }, request);
}

/** Queues a deployment of the service (checked by the caller): answers the queued record. */
export async function queueFor(ctx: Context, service: Pick<NewDeployment, 'applicationId' | 'composeId' | 'databaseId' | 'databaseType'>, request: Request) {
  const data: Deployment = newDeployment({
    ...request, deploymentId: ctx.newId(deploymentAggregate), ...service,
    accountId: request.trigger === 'account' ? ctx.actor?.id ?? null : null, createdAt: ctx.now,
  });
  const { after } = await ctx.execute(deploymentAggregate, data.deploymentId, { type: 'QueueDeployment', data });
  return ctx.view(deploymentAggregate, after);
}

const POLL_MS = 50;

/**
 * Reads the stream of `aggregate` `id` (bounded, polling) until `settled` finds what it waits for
 * in its events. Null when the bound passed first.
 */
export async function waitForStream<T>(ctx: Context, aggregate: string, id: string,
  settled: (events: readonly RecordedEvent[]) => T | null): Promise<T | null> {
  const deadline = Date.now() + ctx.infra.config.actionWaitMs;
  const stream = streamName(aggregate, id);
  for (;;) {
    const found = settled((await ctx.infra.eventStore.readStream(stream)).events);
    if (found !== null || Date.now() >= deadline) return found;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/**
 * Waits (bounded) for an event of `stream` after `after` that `matches`; it moves the answer's
 * read-your-writes position to it. Null when the bound passed first.
 */
export async function waitForEvent(ctx: Context, aggregate: string, id: string, after: number,
  matches: (event: RecordedEvent) => boolean): Promise<RecordedEvent | null> {
  const found = await waitForStream(ctx, aggregate, id, (events) => events.find((event) => event.position > after && matches(event)) ?? null);
  if (found) ctx.position = Math.max(ctx.position, found.position);
  return found;
}
