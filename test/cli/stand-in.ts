// A stand-in Berth for CLI tests: answers each operation (`/api/<group>.<procedure>`) from a table,
// 404 for any other, and keeps the requests it saw, so a test can tell that none was made.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Answer { readonly status: number; readonly body: unknown }

export interface StandIn {
  readonly url: () => string;
  /** The operations called, in order, with the Authorization each carried. */
  readonly seen: Array<{ operation: string; authorization: string | undefined }>;
  readonly start: () => Promise<void>;
  readonly stop: () => Promise<void>;
}

export function standIn(answers: Readonly<Record<string, Answer>>): StandIn {
  const seen: StandIn['seen'] = [];
  const server: Server = createServer((request, response) => {
    request.resume();
    const operation = new URL(request.url ?? '/', 'http://berth').pathname.replace(/^\/api\//, '');
    seen.push({ operation, authorization: request.headers.authorization });
    const answer = answers[operation] ?? { status: 404, body: { code: 'NOT_FOUND', message: `no ${operation}` } };
    response.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
  });
  return {
    url: () => `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    start: () => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve)),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
