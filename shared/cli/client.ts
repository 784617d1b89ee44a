// Calls an operation of a running Berth the way the contract says: GET with a query, POST with
// a JSON body, the saved token as Bearer. Failures come back in the spec's error shape; a call
// that never got through says which Berth it was made to.
import type { Operation } from '../contract/operation.ts';
import type { Settings } from './settings.ts';

export class ApiError extends Error {
  constructor(readonly status: number, readonly body: { message?: string; code?: string; issues?: Array<{ message: string }> }) {
    super(body.issues?.map((issue) => issue.message).join('; ') || body.message || `HTTP ${status}`);
  }
}

/**
 * A 401 that says how to sign in: to a call made without a token, for want of one (the server's
 * "Missing Bearer token"), and to the first admin's creation, which takes the setup token. Any other
 * 401 (a wrong password at login) keeps the server's words.
 */
export class NotSignedIn extends ApiError {
  constructor(status: number, body: ApiError['body'], override readonly message: string) {
    super(status, body);
  }
}
const MISSING_TOKEN = /missing bearer token/i;
const SETUP_TOKEN_NEEDED = 'auth.createAdmin takes the setup token a new Berth prints at its first start (also in its data folder,'
  + ' file setup-token): BERTH_TOKEN=<setup token> berth auth create-admin --email … --password …';

/** A 2xx answer that is not JSON: something other than Berth answers at that address. */
export class NotJson extends Error {}

/** A call that never reached Berth, or lost it midway; its message names the address tried. */
export class ConnectionFailed extends Error {}

/** The codes of a connection refused, dropped, timed out or unresolved (undici's own start UND_ERR_). */
const NETWORK_CODE = /^(UND_ERR_|ECONN|EHOSTUNREACH|ENETUNREACH|ETIMEDOUT|ENOTFOUND|EAI_)/;

/** The error and its causes, outermost first. */
function* causes(error: unknown): Generator<Error> {
  for (let link = error; link instanceof Error; link = link.cause) yield link;
}

/**
 * One line saying that the connection to Berth at `url` failed (fetch's `fetch failed` before an
 * answer, `terminated` when it broke mid-answer), with the innermost reason; null for any other
 * error. A ConnectionFailed already names its own address.
 */
export function connectionFailure(error: unknown, url: string): string | null {
  if (error instanceof ConnectionFailed) return error.message;
  const chain = [...causes(error)];
  const coded = chain.some((link) => NETWORK_CODE.test(String((link as NodeJS.ErrnoException).code ?? '')));
  const fetchFailed = error instanceof TypeError && (error.message === 'fetch failed' || error.message === 'terminated');
  if (!coded && !fetchFailed) return null;
  const reason = chain.at(-1)!.message;
  return error instanceof TypeError && error.message === 'terminated'
    ? `lost the connection to Berth at ${url}: ${reason}`
    : `cannot reach Berth at ${url}: ${reason}`;
}

/** Awaits a step of a call to `url`, turning a connection failure into one naming that address. */
async function reaching<T>(url: string, step: Promise<T>): Promise<T> {
  try {
    return await step;
  } catch (error) {
    const line = connectionFailure(error, url);
    throw line === null ? error : new ConnectionFailed(line, { cause: error });
  }
}

const queryValue = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

async function failure(settings: Settings, operation: Operation, response: Response): Promise<ApiError> {
  const text = await reaching(settings.url, response.text());
  let body: ApiError['body'] = { message: text };
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null) body = parsed as ApiError['body'];
  } catch { /* not the error shape: keep the text */ }
  if (response.status !== 401) return new ApiError(response.status, body);
  if (operation.name === 'auth.createAdmin') return new NotSignedIn(response.status, body, SETUP_TOKEN_NEEDED);
  const signedOut = !settings.token && MISSING_TOKEN.test(body.message ?? '');
  return signedOut ? new NotSignedIn(response.status, body, 'not signed in: run berth login') : new ApiError(response.status, body);
}

export async function request(settings: Settings, operation: Operation, input: Record<string, unknown>, accept = 'application/json'): Promise<Response> {
  const headers: Record<string, string> = { accept, ...(settings.token && { authorization: `Bearer ${settings.token}` }) };
  const url = `${settings.url}/api/${operation.name}`;
  const response = await reaching(settings.url, operation.method === 'GET'
    ? fetch(`${url}?${new URLSearchParams(Object.entries(input).filter(([, value]) => value !== undefined).map(([key, value]): [string, string] => [key, queryValue(value)]))}`, { headers })
    : fetch(url, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(input) }));
  if (!response.ok) throw await failure(settings, operation, response);
  return response;
}

/** A 2xx answer's JSON; null when empty. */
export async function answerOf(settings: Settings, response: Response): Promise<unknown> {
  const text = await reaching(settings.url, response.text());
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    const contentType = response.headers.get('content-type');
    throw new NotJson(`Berth at ${settings.url} answered something that is not JSON (${contentType === null ? 'no content-type' : `content-type ${contentType}`})`);
  }
}

export async function call(settings: Settings, operation: Operation, input: Record<string, unknown>): Promise<unknown> {
  return answerOf(settings, await request(settings, operation, input));
}

/** The frames of a server-sent event stream, as they arrive. */
export async function* serverSentEvents(response: Response): AsyncGenerator<{ event: string; data: string }> {
  let buffer = '';
  for await (const chunk of response.body!.pipeThrough(new TextDecoderStream())) {
    buffer += chunk;
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const lines = frame.split('\n').filter((line) => !line.startsWith(':'));
      if (lines.length === 0) continue;
      const field = (name: string) => lines.filter((line) => line.startsWith(`${name}:`)).map((line) => line.slice(name.length + 1).replace(/^ /, ''));
      yield { event: field('event')[0] ?? 'message', data: field('data').join('\n') };
    }
  }
}
