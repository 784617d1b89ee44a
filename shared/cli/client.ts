// Calls an operation of a running Berth the way the contract says: GET with a query, POST with
// a JSON body, the saved token as Bearer. Failures come back in the spec's error shape.
import type { Operation } from '../contract/operation.ts';
import type { Settings } from './settings.ts';

export class ApiError extends Error {
  constructor(readonly status: number, readonly body: { message?: string; code?: string; issues?: Array<{ message: string }> }) {
    super(body.issues?.map((issue) => issue.message).join('; ') || body.message || `HTTP ${status}`);
  }
}

const queryValue = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

export async function request(settings: Settings, operation: Operation, input: Record<string, unknown>, accept = 'application/json'): Promise<Response> {
  const headers: Record<string, string> = { accept, ...(settings.token && { authorization: `Bearer ${settings.token}` }) };
  const url = `${settings.url}/api/${operation.name}`;
  const response = operation.method === 'GET'
    ? await fetch(`${url}?${new URLSearchParams(Object.entries(input).filter(([, value]) => value !== undefined).map(([key, value]): [string, string] => [key, queryValue(value)]))}`, { headers })
    : await fetch(url, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(input) });
  if (!response.ok) {
    const text = await response.text();
    let body: ApiError['body'] = { message: text };
    try { body = JSON.parse(text) as ApiError['body']; } catch { /* not the error shape: keep the text */ }
    throw new ApiError(response.status, body);
  }
  return response;
}

export async function call(settings: Settings, operation: Operation, input: Record<string, unknown>): Promise<unknown> {
  const response = await request(settings, operation, input);
  const text = await response.text();
  return text ? JSON.parse(text) : null;
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
