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

/**
 * A refusal of one field as the schema check words it too: "<field> <rest of the sentence>". `rest`
 * is what the field is or must be ("must be at least 8 characters long"); a sentence that already
 * starts with the field ("username \"ann\" is already taken") is kept as it is, not named twice.
 */
export function fieldSentence(field: string, rest: string): string {
  const named = rest.startsWith(field) && !/^[\w$]/.test(rest.slice(field.length));
  return named ? rest : `${field} ${rest}`;
}

/** One field's refusal: the top-level message and the issue say the same sentence. */
const fieldError = (code: ErrorCode, field: string, rest: string) => {
  const message = fieldSentence(field, rest);
  return new DomainError(code, message, [{ message, path: field }]);
};

/** "Application" names no application: the label as a word inside a sentence. */
const inSentence = (label: string) => label.charAt(0).toLowerCase() + label.slice(1);

export const badRequest = (field: string, rest: string) => fieldError('BAD_REQUEST', field, rest);
export const notFound = (field: string, what: string) => fieldError('NOT_FOUND', field, `names no ${inSentence(what)}`);
export const conflict = (message: string, field?: string) =>
  field ? fieldError('CONFLICT', field, message) : new DomainError('CONFLICT', message);
export const unauthorized = (message = 'Authentication required') => new DomainError('UNAUTHORIZED', message);
export const forbidden = (message = 'Not allowed') => new DomainError('FORBIDDEN', message);
export const tooManyRequests = (retryAfterSeconds: number) =>
  new DomainError('TOO_MANY_REQUESTS', `Too many failed attempts; try again in ${retryAfterSeconds} s`,
    undefined, { 'retry-after': String(retryAfterSeconds) });
/** 503: something Berth needs could not be reached; the same call may succeed once it is back. */
export const unavailable = (message: string) => new DomainError('UNAVAILABLE', `${message}; try again shortly`, undefined, { 'retry-after': '1' });
export const notImplemented = (capability: string) =>
  new DomainError('NOT_IMPLEMENTED', `Not implemented yet: ${capability}`);

/** What went wrong, as text: an error's message, or whatever else was thrown. */
export const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));
