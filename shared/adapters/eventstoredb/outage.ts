import { DeadlineExceededError, UnavailableError as ClientUnavailable, CancelledError } from '@eventstore/db-client';

/** Failures that mean the server cannot be reached, as opposed to a refused operation. */
export const isEsdbOutage = (error: unknown): boolean =>
  error instanceof ClientUnavailable || error instanceof DeadlineExceededError || error instanceof CancelledError
  || (typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 14);
