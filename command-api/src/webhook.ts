// Push to deploy: `POST /api/deploy/<refreshToken>` takes a forge's push payload. The refresh token
// is the credential (no Bearer); a deployment is queued only when the application deploys
// automatically and the pushed branch is its branch. Anything else is a clear 4xx, nothing queued.
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { isSealed } from '@berth/shared/crypto/secrets';
import type { Application } from '@berth/shared/domain/application/record';
import { badRequest, conflict, DomainError, unauthorized } from '@berth/shared/errors';
import type { Infrastructure } from '@berth/shared/runtime/infrastructure';
import { Context } from './context.ts';
import { queueDeployment } from './handlers/deployment-queue.ts';

interface Push {
  ref?: unknown;
  after?: unknown;
  head_commit?: { message?: unknown } | null;
}

const same = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

async function applicationWithToken(infra: Infrastructure, token: string): Promise<Application | null> {
  for (const doc of await infra.readStore.all('application')) {
    const sealed = doc.refreshToken;
    if (isSealed(sealed) && same(infra.secrets.open(sealed), token)) return doc as unknown as Application;
  }
  return null;
}

const branchOf = (application: Application) =>
  application.sourceType === 'git' ? application.customGitBranch : application.sourceType === 'forge' ? application.branch : null;

export function deployWebhook(app: FastifyInstance, infra: Infrastructure): void {
  app.post<{ Params: { refreshToken: string }; Body: Push | undefined }>('/api/deploy/:refreshToken', async (request, reply) => {
    const application = await applicationWithToken(infra, request.params.refreshToken);
    if (!application) throw unauthorized('No application has this deploy token');
    if (application.autoDeploy !== true) throw conflict(`${application.appName} does not deploy automatically (autoDeploy is off)`, 'autoDeploy');
    const push = request.body && typeof request.body === 'object' ? request.body : {};
    const branch = branchOf(application);
    if (branch !== null) {
      if (typeof push.ref !== 'string') throw badRequest('ref', 'the push payload names no ref (refs/heads/<branch>)');
      if (push.ref !== `refs/heads/${branch}`) throw badRequest('ref', `${push.ref} is not the application's branch ${branch}: nothing deployed`);
    }
    const message = typeof push.head_commit?.message === 'string' ? push.head_commit.message.split('\n')[0] : null;
    const revision = typeof push.after === 'string' ? push.after.slice(0, 12) : null;
    const ctx = new Context(infra, null, request.id, request.ip);
    const title = `Push${branch ? ` to ${branch}` : ''}${revision ? ` (${revision})` : ''}${message ? `: ${message}` : ''}`;
    const deployment = await queueDeployment(ctx, application.applicationId, { kind: 'deploy', title, trigger: 'webhook', image: null, rollbackOf: null });
    await infra.readStore.waitFor(ctx.position, infra.config.projectionWaitMs).catch(() => {});
    return reply.send(deployment);
  });
  // Any other method on the path says how to call it.
  app.route({ method: ['GET', 'PUT', 'PATCH', 'DELETE'], url: '/api/deploy/:refreshToken', handler: async (_request, reply) => {
    const error = new DomainError('METHOD_NOT_SUPPORTED', 'Push to deploy is called with POST');
    return reply.status(error.status).header('allow', 'POST').send(error.toBody());
  } });
}
