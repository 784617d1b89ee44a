import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, unavailable, type ErrorCode } from '@berth/shared/errors';
import { UnavailableError } from '@berth/shared/ports/unavailable';
import { isDiskFull } from '@berth/shared/ports/disk-full';

/** Fastify's own failures, in the spec's error shape and codes. */
const FASTIFY_CODES: Record<string, ErrorCode> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_BODY_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'BAD_REQUEST',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'PARSE_ERROR',
  FST_ERR_CTP_INVALID_JSON_BODY: 'PARSE_ERROR',
};

export function toDomainError(error: FastifyError | Error): DomainError {
  if (error instanceof DomainError) return error;
  // Nothing was written; its message names the cause, which "cannot be reached" would hide.
  if (isDiskFull(error)) return unavailable(error.message);
  // A store that went away: nothing was decided on a guess; the client may retry once it is back.
  if (error instanceof UnavailableError) {
    return unavailable(`${error.what} cannot be reached`);
  }
  const code = 'code' in error && typeof error.code === 'string' ? FASTIFY_CODES[error.code] : undefined;
  if (code) return new DomainError(code, error.message);
  // A 400 from Fastify is its reading of the request's body; a SyntaxError a handler throws (an
  // answer of another service that is not JSON) is no fault of the request: it stays a 500.
  const status = 'statusCode' in error ? Number(error.statusCode) : 500;
  if (status === 400 && !('validation' in error)) {
    return new DomainError('PARSE_ERROR', `The body is not valid JSON: ${error.message}`);
  }
  return new DomainError('INTERNAL_SERVER_ERROR', 'Internal server error');
}

/**
 * A request the HTTP parser refused before any route saw it (headers past 16 KB, a malformed
 * request line, a request that took too long to arrive): answered in the spec's error shape too,
 * then the connection is closed, as Fastify's own handler does.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const refusal = error.code === 'HPE_HEADER_OVERFLOW'
    ? new DomainError('HEADERS_TOO_LARGE', 'The request\'s headers (with its URL) are too large: at most 16 KB')
    : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? new DomainError('REQUEST_TIMEOUT', 'The request took too long to arrive')
      : new DomainError('BAD_REQUEST', `The request is not valid HTTP: ${error.message}`);
  const body = JSON.stringify(refusal.toBody());
  if (socket.writable) {
    socket.write(`HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status] ?? ''}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n`
      + `Content-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${body}`);
  }
  socket.destroy(error);
}

export function errorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const domainError = toDomainError(error);
  if (domainError.status >= 500 && domainError.code !== 'NOT_IMPLEMENTED') request.log.error(error);
  return reply.status(domainError.status).headers(domainError.headers).send(domainError.toBody());
}
