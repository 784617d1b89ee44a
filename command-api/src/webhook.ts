// Push to deploy: `POST /api/deploy/<refreshToken>` (an application) and
// `POST /api/deploy/compose/<refreshToken>` (a compose service) take a forge's push payload. The
// refresh token is the credential (no Bearer); a deployment is queued only when the service deploys
// automatically and the pushed branch is its branch. Anything else is a clear 4xx, nothing queued.
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { isSealed } from '@berth/shared/crypto/secrets';
import type { Application } from '@berth/shared/domain/application/record';
import type { Compose } from '@berth/shared/domain/compose/compose';
import { badRequest, conflict, DomainError, unauthorized } from '@berth/shared/errors';
import type { Infrastructure } from '@berth/shared/runtime/infrastructure';
import { Context } from './context.ts';
import { queueComposeDeployment } from './handlers/compose-runtime.ts';
import { queueDeployment } from './handlers/deployment-queue.ts';

interface Push {
  ref?: unknown;
  after?: unknown;
  head_commit?: { message?: unknown } | null;
}

/** A service a push may deploy, as the webhook needs it. */
interface Pushed {
  readonly appName: string;
  readonly autoDeploy: boolean | null;
  /** The branch a push must be to; null when the source has none (an image, a stored file). */
  readonly branch: string | null;
  queue(ctx: Context, title: string): Promise<unknown>;
}

const same = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

async function withToken<T>(infra: Infrastructure, collection: string, token: string): Promise<T | null> {
  for (const doc of await infra.readStore.all(collection)) {
    const sealed = doc.refreshToken;
    if (isSealed(sealed) && same(infra.secrets.open(sealed), token)) return doc as unknown as T;
  }
  return null;
}

const branchOf = (service: Pick<Application, 'customGitBranch' | 'branch'> & { sourceType: string }) =>
  service.sourceType === 'git' ? service.customGitBranch : service.sourceType === 'forge' ? service.branch : null;

async function application(infra: Infrastructure, token: string): Promise<Pushed | null> {
  const found = await withToken<Application>(infra, 'application', token);
  return found && {
    appName: found.appName, autoDeploy: found.autoDeploy, branch: branchOf(found),
    queue: (ctx, title) => queueDeployment(ctx, found.applicationId, { kind: 'deploy', title, trigger: 'webhook', image: null, rollbackOf: null }),
  };
}

async function compose(infra: Infrastructure, token: string): Promise<Pushed | null> {
  const found = await withToken<Compose>(infra, 'compose', token);
  return found && {
    appName: found.appName, autoDeploy: found.autoDeploy, branch: branchOf(found),
    queue: (ctx, title) => queueComposeDeployment(ctx, found.composeId, { kind: 'deploy', title, trigger: 'webhook' }),
  };
}

function pushRoute(app: FastifyInstance, infra: Infrastructure, url: string, what: string, find: typeof application): void {
  app.post<{ Params: { refreshToken: string }; Body: Push | undefined }>(url, async (request, reply) => {
    const service = await find(infra, request.params.refreshToken);
    if (!service) throw unauthorized(`No ${what} has this deploy token`);
    if (service.autoDeploy !== true) throw conflict(`${service.appName} does not deploy automatically (autoDeploy is off)`, 'autoDeploy');
    const push = request.body && typeof request.body === 'object' ? request.body : {};
    const { branch } = service;
    if (branch !== null) {
      if (typeof push.ref !== 'string') throw badRequest('ref', 'the push payload names no ref (refs/heads/<branch>)');
      if (push.ref !== `refs/heads/${branch}`) throw badRequest('ref', `${push.ref} is not the ${what}'s branch ${branch}: nothing deployed`);
    }
    const message = typeof push.head_commit?.message === 'string' ? push.head_commit.message.split('\n')[0] : null;
    const revision = typeof push.after === 'string' ? push.after.slice(0, 12) : null;
    const ctx = new Context(infra, null, request.id, request.ip);
    const title = `Push${branch ? ` to ${branch}` : ''}${revision ? ` (${revision})` : ''}${message ? `: ${message}` : ''}`;
    const deployment = await service.queue(ctx, title);
    await infra.readStore.waitFor(ctx.position, infra.config.projectionWaitMs).catch(() => {});
    return reply.send(deployment);
  });
  // Any other method on the path says how to call it.
  app.route({ method: ['GET', 'PUT', 'PATCH', 'DELETE'], url, handler: async (_request, reply) => {
    const error = new DomainError('METHOD_NOT_SUPPORTED', 'Push to deploy is called with POST');
    return reply.status(error.status).header('allow', 'POST').send(error.toBody());
  } });
}

export function deployWebhook(app: FastifyInstance, infra: Infrastructure): void {
  pushRoute(app, infra, '/api/deploy/:refreshToken', 'application', application);
  pushRoute(app, infra, '/api/deploy/compose/:refreshToken', 'compose service', compose);
}
