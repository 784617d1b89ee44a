/**
 * A store or bus that cannot be reached right now. Adapters throw it for connection failures, so
 * the API answers 503 UNAVAILABLE (never 500) and the caller may try again once it is back.
 */
export class UnavailableError extends Error {
  constructor(readonly what: string, cause: unknown) {
    super(`${what} cannot be reached: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'UnavailableError';
  }
}

/** By name, not instanceof: this module can be loaded twice (by its path and through the workspace package). */
export const isUnavailable = (error: unknown): error is UnavailableError => error instanceof Error && error.name === 'UnavailableError';

/** Runs `operation`, turning the failures `isOutage` recognises into an UnavailableError. */
export async function orUnavailable<T>(what: string, isOutage: (error: unknown) => boolean, operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    throw isOutage(error) ? new UnavailableError(what, error) : error;
  }
}

/** Socket failures that mean the peer could not be reached, or dropped the connection. */
const SOCKET_OUTAGES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN',
  'ERR_SOCKET_CLOSED', 'ERR_STREAM_DESTROYED',
]);

/**
 * Whether `error` is a failure to reach a peer over a socket, as opposed to the peer's refusal:
 * any failed connect (a unix socket that is missing is ENOENT) or a connection that broke.
 */
export function isSocketOutage(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const { code, syscall } = error as NodeJS.ErrnoException;
  return syscall === 'connect' || SOCKET_OUTAGES.has(code ?? '');
}
