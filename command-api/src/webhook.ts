// Push to deploy: `POST /api/deploy/<refreshToken>` (an application) and
// `POST /api/deploy/compose/<refreshToken>` (a compose service) take a forge's push payload. The
// refresh token is the credential (no Bearer); a deployment is queued only when the service deploys
// automatically and the pushed branch is its branch. Anything else is a clear 4xx, nothing queued.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TSchema } from '@sinclair/typebox';
import { contract } from '@berth/shared/contract/index';
import { holderOfToken } from './deploy-token.ts';
import { applicationAggregate } from '@berth/shared/domain/application/application';
import type { Application } from '@berth/shared/domain/application/record';
import { composeAggregate, type Compose } from '@berth/shared/domain/compose/compose';
import { badRequest, conflict, DomainError, unauthorized } from '@berth/shared/errors';
import type { Infrastructure } from '@berth/shared/runtime/infrastructure';
import { Context } from './context.ts';
import { serializerOf } from './serialization.ts';
import { queueComposeDeployment } from './handlers/compose-runtime.ts';
import { queueDeployment } from './handlers/deployment-queue.ts';

interface Push {
  ref?: unknown;
  after?: unknown;
  deleted?: unknown;
  head_commit?: { message?: unknown } | null;
  repository?: { default_branch?: unknown } | null;
}

/** A service a push may deploy, as the webhook needs it. */
interface Pushed {
  readonly appName: string;
  readonly autoDeploy: boolean | null;
  /**
   * The branch a push must be to: '' for the repository's default branch (a git source that names
   * none clones that one); null when the source has no branch (an image, a stored file).
   */
  readonly branch: string | null;
  queue(ctx: Context, title: string): Promise<unknown>;
}

/** The longest part of a commit message a deployment's title quotes. */
const TITLE_MESSAGE = 100;


const branchOf = (service: Pick<Application, 'customGitBranch' | 'branch'> & { sourceType: string }) =>
  service.sourceType === 'git' ? service.customGitBranch ?? '' : service.sourceType === 'forge' ? service.branch ?? '' : null;

/** Why a push deploys nothing for a service following `branch` (see Pushed), or null when it deploys. */
export function pushRefusal(push: Push, branch: string | null, what: string): DomainError | null {
  const ref = push.ref;
  if (push.deleted === true) return badRequest('deleted', `is true: the push deletes ${typeof ref === 'string' ? ref : 'a branch'}; nothing deployed`);
  if (branch === null) return null;
  if (branch !== '') {
    if (typeof ref !== 'string') return badRequest('ref', 'is missing: the push payload names no branch (refs/heads/<branch>)');
    return ref === `refs/heads/${branch}` ? null : badRequest('ref', `${ref} is not the ${what}'s branch ${branch}: nothing deployed`);
  }
  // The default branch: a call without a ref is a plain trigger; a push must be to that branch.
  if (ref === undefined) return null;
  if (typeof ref !== 'string' || !ref.startsWith('refs/heads/')) return badRequest('ref', `${String(ref)} is not a branch: nothing deployed`);
  const defaultBranch = push.repository?.default_branch;
  if (typeof defaultBranch === 'string' && ref !== `refs/heads/${defaultBranch}`) {
    return badRequest('ref', `${ref} is not the repository's default branch ${defaultBranch}, which the ${what} follows: nothing deployed`);
  }
  return null;
}

/** "Push to <branch> (<commit>): <first line of the message>", the message cut to a title's length. */
function titleOf(push: Push, branch: string | null): string {
  const line = typeof push.head_commit?.message === 'string' ? push.head_commit.message.split('\n')[0]! : '';
  const message = line.length > TITLE_MESSAGE ? `${line.slice(0, TITLE_MESSAGE - 1)}…` : line;
  const revision = typeof push.after === 'string' ? push.after.slice(0, 12) : null;
  return `Push${branch ? ` to ${branch}` : ''}${revision ? ` (${revision})` : ''}${message ? `: ${message}` : ''}`;
}

async function application(infra: Infrastructure, token: string): Promise<Pushed | null> {
  const found = await holderOfToken<Application>(infra, applicationAggregate, token);
  return found && {
    appName: found.appName, autoDeploy: found.autoDeploy, branch: branchOf(found),
    queue: (ctx, title) => queueDeployment(ctx, found.applicationId, { kind: 'deploy', title, trigger: 'webhook', image: null, rollbackOf: null }),
  };
}

async function compose(infra: Infrastructure, token: string): Promise<Pushed | null> {
  const found = await holderOfToken<Compose>(infra, composeAggregate, token);
  return found && {
    appName: found.appName, autoDeploy: found.autoDeploy, branch: branchOf(found),
    queue: (ctx, title) => queueComposeDeployment(ctx, found.composeId, { kind: 'deploy', title, trigger: 'webhook' }),
  };
}

/** Where a forge's push lands: commands beyond the contract (they queue a deployment). */
export const PUSH_ROUTES = { application: '/api/deploy/:refreshToken', compose: '/api/deploy/compose/:refreshToken' } as const;

function pushRoute(app: FastifyInstance, infra: Infrastructure, url: string, what: string, find: typeof application, answer: TSchema): void {
  const pushed = new WeakMap<FastifyRequest, Pushed>();
  const serialize = serializerOf(answer);
  app.post<{ Params: { refreshToken: string }; Body: Push | undefined }>(url, {
    // Who before what: the token is checked before the body is parsed, so a wrong one is 401 whatever is sent.
    onRequest: async (request) => {
      const service = await find(infra, request.params.refreshToken);
      if (!service) throw unauthorized(`No ${what} has this deploy token`);
      pushed.set(request, service);
    },
  }, async (request, reply) => {
    const service = pushed.get(request)!;
    if (service.autoDeploy !== true) throw conflict(`is off: ${service.appName} does not deploy automatically`, 'autoDeploy');
    const push = request.body && typeof request.body === 'object' ? request.body : {};
    const refusal = pushRefusal(push, service.branch, what);
    if (refusal) throw refusal;
    const ctx = new Context(infra, null, request.id, request.ip);
    const deployment = await service.queue(ctx, titleOf(push, service.branch));
    await infra.readStore.waitFor(ctx.position, infra.config.projectionWaitMs).catch(() => {});
    // Written with the declared answer of a deploy, so no field of the record beyond it leaves.
    return reply.type('application/json; charset=utf-8').send(serialize(deployment));
  });
  // Any other method on the path says how to call it.
  app.route({ method: ['GET', 'PUT', 'PATCH', 'DELETE'], url, handler: async (_request, reply) => {
    const error = new DomainError('METHOD_NOT_SUPPORTED', 'Push to deploy is called with POST');
    return reply.status(error.status).header('allow', 'POST').send(error.toBody());
  } });
}

export function deployWebhook(app: FastifyInstance, infra: Infrastructure): void {
  pushRoute(app, infra, PUSH_ROUTES.application, 'application', application, contract.application.deploy.output);
  pushRoute(app, infra, PUSH_ROUTES.compose, 'compose service', compose, contract.compose.deploy.output);
}
