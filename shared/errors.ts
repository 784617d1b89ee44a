// Every failure the API can answer, in the spec's error shape.
export const STATUS_OF = {
  BAD_REQUEST: 400,
  PARSE_ERROR: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_SUPPORTED: 405,
  REQUEST_TIMEOUT: 408,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  TOO_MANY_REQUESTS: 429,
  HEADERS_TOO_LARGE: 431,
  INTERNAL_SERVER_ERROR: 500,
  NOT_IMPLEMENTED: 501,
  UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof STATUS_OF;

export interface Issue {
  readonly message: string;
  readonly path?: string;
}

export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly issues: readonly Issue[] = [{ message }],
    /** Response headers that go with the error (`Retry-After`). */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = 'DomainError';
  }

  get status(): number {
    return STATUS_OF[this.code];
  }

  toBody() {
    return { message: this.message, code: this.code, issues: this.issues };
  }
}

const fieldIssue = (field: string, message: string): Issue => ({ message: `${field}: ${message}`, path: field });

export const badRequest = (field: string, message: string) =>
  new DomainError('BAD_REQUEST', `Invalid ${field}: ${message}`, [fieldIssue(field, message)]);
export const notFound = (field: string, what: string) =>
  new DomainError('NOT_FOUND', `${what} not found`, [fieldIssue(field, `${what} not found`)]);
export const conflict = (message: string, field?: string) =>
  new DomainError('CONFLICT', message, [field ? fieldIssue(field, message) : { message }]);
export const unauthorized = (message = 'Authentication required') => new DomainError('UNAUTHORIZED', message);
export const forbidden = (message = 'Not allowed') => new DomainError('FORBIDDEN', message);
export const tooManyRequests = (retryAfterSeconds: number) =>
  new DomainError('TOO_MANY_REQUESTS', `Too many failed attempts; try again in ${retryAfterSeconds} s`,
    undefined, { 'retry-after': String(retryAfterSeconds) });
export const notImplemented = (capability: string) =>
  new DomainError('NOT_IMPLEMENTED', `Not implemented yet: ${capability}`);
