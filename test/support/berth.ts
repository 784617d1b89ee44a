// A whole Berth in this process, on a fresh data folder, driven through `app.inject`.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { beforeAnswering } from '@berth/command-api/role';
import { buildServer } from '@berth/command-api/server';
import { configFrom, type Config } from '@berth/shared/runtime/config';
import { launch, type Berth } from '@berth/shared/runtime/launch';
import type { Clock } from '@berth/shared/ports/clock';
import { newId } from '@berth/shared/ids';

export interface Answer<T = any> {
  readonly status: number;
  readonly body: T;
  readonly headers: Record<string, unknown>;
}

export interface TestBerth {
  readonly app: FastifyInstance;
  readonly berth: Berth;
  readonly dataDir: string;
  /** The admin's token. */
  readonly token: string;
  /** Logs the admin in again (after the clock moved past the token's lifetime). */
  relogin(): Promise<void>;
  /** Calls an operation by name: GET with a query, POST with a JSON body; as the admin unless told. */
  call<T = any>(operation: string, input?: Record<string, unknown>, options?: { token?: string | null }): Promise<Answer<T>>;
  /** Calls and expects 200, answering the body. */
  ok<T = any>(operation: string, input?: Record<string, unknown>): Promise<T>;
  /**
   * Calls and expects a refusal: answered `status`, its issues naming exactly `field` (when given),
   * and nothing appended to the log by it (the reactors may append meanwhile). Answers the body.
   */
  refused<T = any>(operation: string, input: Record<string, unknown>, status: number, field?: string): Promise<T>;
  head(): Promise<number>;
  /** The whole event log as JSON text, to look for what must never be in it in clear. */
  eventLog(): Promise<string>;
  stop(options?: { keepData?: boolean }): Promise<void>;
}

export const ADMIN = { email: 'admin@berth.test', password: 'correct horse battery' };

const GET_OPERATIONS = new Set<string>();

/** The fields an error answer's issues name, in order. */
export const pathsOf = (body: { issues: Array<{ path?: string }> }) => body.issues.map((issue) => issue.path);

/** A Berth's whole event log as JSON text. */
export const eventLogOf = async (berth: Berth) => JSON.stringify(await berth.infrastructure.eventStore.readAll(0, 100_000));

export async function startBerth(options: { dataDir?: string; clock?: Clock; config?: Partial<Config>; env?: Record<string, string> } = {}): Promise<TestBerth> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'berth-test-'));
  const config = configFrom(options.env ?? {}, {
    // No reactors run here unless a test starts them: start/stop/reload give up waiting soon.
    dataDir, host: '127.0.0.1', port: 0, roles: ['projections'], logLevel: 'silent', sqliteSynchronous: 'NORMAL', actionWaitMs: 200,
    // A second of running proves a task's start as five do, but for a late crash: its own test waits longer.
    taskSteadyMs: 1000,
    ...options.config,
  });
  const berth = await launch(config, options.clock);
  const app = buildServer(berth.infrastructure, { logger: false });
  await app.ready();
  await beforeAnswering(berth.infrastructure, () => {});
  if (GET_OPERATIONS.size === 0) {
    const { operations } = await import('@berth/shared/contract/index');
    for (const operation of operations) if (operation.method === 'GET') GET_OPERATIONS.add(operation.name);
  }

  const request = async (operation: string, input: Record<string, unknown> = {}, token: string | null = null, correlationId?: string): Promise<Answer> => {
    const headers: Record<string, string> = {
      ...(token && { authorization: `Bearer ${token}` }),
      ...(correlationId && { 'x-correlation-id': correlationId }),
    };
    const url = `/api/${operation}`;
    const response = GET_OPERATIONS.has(operation)
      ? await app.inject({ method: 'GET', url, query: input as Record<string, string>, headers })
      : await app.inject({ method: 'POST', url, payload: input, headers });
    const text = response.body;
    // NDJSON and event streams stay text.
    const json = String(response.headers['content-type'] ?? 'application/json').startsWith('application/json');
    return { status: response.statusCode, body: text ? (json ? JSON.parse(text) : text) : null, headers: response.headers };
  };

  let token = '';
  const existing = await request('auth.login', ADMIN);
  if (existing.status === 200) {
    token = existing.body.token;
  } else {
    const setup = readFileSync(join(dataDir, 'setup-token'), 'utf8').trim();
    const created = await request('auth.createAdmin', ADMIN, setup);
    if (created.status !== 200) throw new Error(`createAdmin failed: ${JSON.stringify(created.body)}`);
    token = (await request('auth.login', ADMIN)).body.token;
  }

  const testBerth: TestBerth = {
    app, berth, dataDir,
    get token() { return token; },
    async relogin() { token = (await request('auth.login', ADMIN)).body.token; },
    call: (operation, input, callOptions) =>
      request(operation, input, callOptions?.token === undefined ? token : callOptions.token),
    async ok(operation, input) {
      const answer = await request(operation, input, token);
      if (answer.status !== 200) {
        throw new Error(`${operation} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
      }
      return answer.body;
    },
    async refused(operation, input, status, field) {
      // What the request appended carries its correlation id; the reactors may append meanwhile.
      const correlationId = newId();
      const head = await berth.infrastructure.eventStore.head();
      const answer = await request(operation, input, token, correlationId);
      assert.equal(answer.status, status, `${operation}: ${JSON.stringify(answer.body)}`);
      if (field) assert.deepEqual(pathsOf(answer.body), [field]);
      const appended = (await berth.infrastructure.eventStore.readAll(head, 100_000))
        .filter((event) => event.metadata.correlationId === correlationId);
      assert.deepEqual(appended.map((event) => event.type), [], `${operation} appended while refused`);
      return answer.body;
    },
    head: () => berth.infrastructure.eventStore.head(),
    eventLog: () => eventLogOf(berth),
    async stop({ keepData = false } = {}) {
      await app.close();
      await berth.stop();
      if (!keepData) rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return testBerth;
}

/** A Berth whose reactors run in it too (with the relay that feeds them): for tests of the work they do. */
export const startBerthWithReactors = (options: Parameters<typeof startBerth>[0] = {}): Promise<TestBerth> =>
  startBerth({ ...options, config: { roles: ['projections', 'relay', 'reactors'], ...options.config } });
