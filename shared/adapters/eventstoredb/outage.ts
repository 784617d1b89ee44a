import { DeadlineExceededError, UnavailableError as ClientUnavailable, CancelledError } from '@eventstore/db-client';

/** A read that got no answer within its deadline: the server hangs, or the network lost it. */
export class ReadDeadlineError extends Error {
  constructor(ms: number) {
    super(`no answer within ${ms / 1000} s`);
    this.name = 'ReadDeadlineError';
  }
}

/** Failures that mean the server cannot be reached, as opposed to a refused operation. */
export const isEsdbOutage = (error: unknown): boolean =>
  error instanceof ClientUnavailable || error instanceof ReadDeadlineError || error instanceof DeadlineExceededError || error instanceof CancelledError
  || (typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 14);

/**
 * A TLS handshake that failed: the address asks for TLS and the server speaks without it (or the
 * other way round). Waiting mends nothing, so it is no outage, and the fix is in the address.
 */
export const isTlsMismatch = (error: unknown): boolean =>
  error instanceof Error && /SSL routines|wrong version number/i.test(error.message);

export class TlsMismatchError extends Error {
  constructor(cause: unknown) {
    // The gRPC error's last error is the TLS library's reason; what follows it is an empty "Resolution note".
    const message = cause instanceof Error ? cause.message : String(cause);
    const reason = /Last error: (?:Error: )?([^\n]*)/.exec(message)?.[1] ?? message.split('\n')[0];
    super(`the TLS handshake failed (a server without TLS needs ?tls=false in the address): ${reason}`, { cause });
    this.name = 'TlsMismatchError';
  }
}
