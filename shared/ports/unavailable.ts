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

/** Runs `operation`, turning the failures `isOutage` recognises into an UnavailableError. */
export async function orUnavailable<T>(what: string, isOutage: (error: unknown) => boolean, operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    throw isOutage(error) ? new UnavailableError(what, error) : error;
  }
}
