// Answers that are not one JSON document (server-sent events, NDJSON): the handler returns one
// of these and it writes itself to the reply.
import type { FastifyReply, FastifyRequest } from 'fastify';

export abstract class StreamedAnswer {
  abstract send(request: FastifyRequest, reply: FastifyReply): FastifyReply | Promise<FastifyReply>;
}
