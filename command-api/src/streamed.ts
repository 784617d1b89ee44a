// Answers that are not one JSON document (server-sent events, NDJSON): the handler returns one
// of these and it writes itself to the reply.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { StreamLifetime } from './stream-lifetime.ts';

export abstract class StreamedAnswer {
  /** Writes the answer; it ends once `lifetime.signal` aborts, and sends nothing once `stillAllowed()` says no. */
  abstract send(request: FastifyRequest, reply: FastifyReply, lifetime: StreamLifetime): FastifyReply | Promise<FastifyReply>;
}
