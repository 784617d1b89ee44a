import type { Writable } from 'node:stream';
import type { TSchema } from '@sinclair/typebox';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import { operations } from '@berth/shared/contract/index';
import type { Operation } from '@berth/shared/contract/operation';
import { DomainError } from '@berth/shared/errors';
import { newId } from '@berth/shared/ids';
import type { Infrastructure } from '@berth/shared/runtime/infrastructure';
import { authenticate } from './auth/authenticate.ts';
import { authorize, grantCreated } from './auth/authorize.ts';
import { Context, type Actor } from './context.ts';
import { clientErrorHandler, errorHandler } from './errors.ts';
import { handlerOf } from './handlers/index.ts';
import { serializerOf } from './serialization.ts';
import { AnswerCache } from './answer-cache.ts';
import { compileValidator } from './validation.ts';
import { StreamedAnswer } from './streamed.ts';
import { Streams } from './stream-lifetime.ts';
import { deployWebhook } from './webhook.ts';
import { observe } from './observability/metrics.ts';
import { health } from './observability/health.ts';
import { apiDocument } from './openapi/routes.ts';

/** Answers carry the log position their events reached, for clients that read elsewhere. */
export const POSITION_HEADER = 'x-berth-position';
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
const CORRELATION = /^[\w.:-]{1,64}$/;
const FORBIDDEN_KEYS = 'The body holds a "__proto__" or "constructor" key, which no operation takes';
const isJson = (text: string) => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

/** Admin operations answer at `/admin.<p>` as the spec lists them, and at `/api/admin.<p>` too. */
const pathsOf = (operation: Operation) =>
  operation.group === 'admin' ? [`/${operation.name}`, `/api/${operation.name}`] : [`/api/${operation.name}`];

declare module 'fastify' {
  interface FastifyRequest {
    /** Who calls, known before the payload is looked at (null: an operation open to anyone). */
    actor: Actor | null;
  }
}

export function buildServer(infra: Infrastructure, options: { logger?: boolean; logStream?: Writable } = {}): FastifyInstance {
  const app = Fastify({
    logger: options.logger === false ? false : { level: infra.config.logLevel, ...(options.logStream && { stream: options.logStream }) },
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: 'correlationId' }),
    bodyLimit: 1024 * 1024,
    clientErrorHandler,
    // request.ip: from a trusted proxy, the right-most X-Forwarded-For address not itself one; else the TCP peer.
    trustProxy: infra.config.trustedProxies.length > 0 ? [...infra.config.trustedProxies] : false,
    // The request's id is its correlation id: the client's when it sent a usable one.
    genReqId: (request) => {
      const header = request.headers['x-correlation-id'];
      return typeof header === 'string' && CORRELATION.test(header) ? header : newId();
    },
  });
  // Declared up front, so every request object has the same shape.
  app.decorateRequest('actor', null);
  // Streams that follow the log end when the server is asked to stop; it would wait for them otherwise.
  const streams = new Streams();
  app.addHook('preClose', () => streams.close(new DomainError('UNAVAILABLE', 'Berth is stopping')));
  observe(app, infra);
  health(app, infra);
  apiDocument(app);
  // Every route schema is one of the contract's TypeBox schemas.
  app.setValidatorCompiler(({ schema }) => compileValidator(schema as TSchema));
  app.setErrorHandler(errorHandler);
  const parseJson = app.getDefaultJsonParser('error', 'error');
  // JSON only: any other content type is UNSUPPORTED_MEDIA_TYPE.
  app.removeAllContentTypeParsers();
  // An operation without payload may be called with an empty body. Valid JSON the parser refuses
  // holds a key that could poison prototypes: say so, not that it is not JSON.
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) =>
    body === '' ? done(null, undefined) : parseJson(request, body as string, (error, value) =>
      done(error && isJson(body as string) ? new DomainError('BAD_REQUEST', FORBIDDEN_KEYS) : error, value)));
  app.setNotFoundHandler((request, reply) => {
    const error = new DomainError('NOT_FOUND', `No operation at ${request.method} ${request.url.split('?')[0]}`);
    return reply.status(error.status).send(error.toBody());
  });

  deployWebhook(app, infra);
  for (const operation of operations) {
    const handler = handlerOf(operation);
    const payload = operation.method === 'GET' ? 'querystring' : 'body';
    const serialize = (answer: unknown) => serializerOf(operation.output)(answer);
    const answers = AnswerCache.for(infra.readStore, operation);
    for (const url of pathsOf(operation)) {
      app.route({
        method: operation.method,
        url,
        schema: { [payload]: operation.input },
        // Who before what: the caller is known before its payload is parsed or checked, so an
        // anonymous call is 401 whatever it sends.
        onRequest: async (request) => {
          request.actor = await authenticate(infra, operation, request.headers.authorization);
        },
        handler: async (request, reply) => {
          const ctx = new Context(infra, request.actor, request.id, request.ip);
          const input = ((payload === 'body' ? request.body : request.query) ?? {}) as Record<string, unknown>;
          await authorize(ctx, operation, input);
          if (answers) {
            const body = await answers.answer(input, ctx.actor, async () => serialize(await handler(input, ctx) ?? null));
            return reply.type('application/json; charset=utf-8').send(body);
          }
          const answer = await handler(input, ctx);
          await grantCreated(ctx, operation, answer);
          if (ctx.position > 0) {
            reply.header(POSITION_HEADER, String(ctx.position));
            // Read-your-writes, bounded: past the bound the command still happened, so it still succeeds.
            await infra.readStore.waitFor(ctx.position, infra.config.projectionWaitMs)
              .catch((error: unknown) => request.log.warn({ err: error }, 'read models lag behind'));
          }
          if (answer instanceof StreamedAnswer) {
            return answer.send(request, reply, streams.lifetime(reply, async () => {
              const actor = await authenticate(infra, operation, request.headers.authorization);
              await authorize(new Context(infra, actor, request.id, request.ip), operation, input);
            }));
          }
          // Every answer is JSON written with the declared schema, a bare string too.
          return reply.type('application/json; charset=utf-8').send(serialize(answer ?? null));
        },
      });
      app.route({
        method: METHODS.filter((method) => method !== operation.method),
        url,
        handler: async (_request, reply) => {
          const error = new DomainError('METHOD_NOT_SUPPORTED', `${operation.name} is called with ${operation.method}`);
          return reply.status(error.status).header('allow', operation.method).send(error.toBody());
        },
      });
    }
  }
  return app;
}
