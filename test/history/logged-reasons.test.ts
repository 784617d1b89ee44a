// What the operator's log says when something goes wrong under a request that still answers: the
// warning carries the error's own message, not an empty object.
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { buildServer } from '@berth/command-api/server';
import type { Infrastructure } from '@berth/shared/runtime/infrastructure';
import { startBerth, type TestBerth } from '../support/berth.ts';

describe('the reasons in the operator\'s log', () => {
  let berth: TestBerth;
  before(async () => { berth = await startBerth(); });
  after(() => berth.stop());

  /** A server over `infra` whose JSON log lines are kept in `lines`. */
  function logged(infra: Infrastructure) {
    const lines: Array<Record<string, unknown>> = [];
    const stream = new PassThrough();
    stream.on('data', (chunk: Buffer) => lines.push(...chunk.toString().split('\n').filter(Boolean).map((line) => JSON.parse(line))));
    const app = buildServer({ ...infra, config: { ...infra.config, logLevel: 'warn' } }, { logStream: stream });
    /** The error the line with `msg` logged. */
    const errorOf = (msg: string) => {
      const line = lines.find((candidate) => candidate.msg === msg);
      assert.ok(line, JSON.stringify(lines));
      return line.err as { message?: string } | undefined;
    };
    return { app, errorOf };
  }

  it('logs why the read models lag behind a command', async () => {
    const infra = berth.berth.infrastructure;
    const stalled = Object.create(infra.readStore, { waitFor: { value: async () => { throw new Error('projections stalled at 41'); } } });
    const { app, errorOf } = logged({ ...infra, readStore: stalled });
    const response = await app.inject({ method: 'POST', url: '/api/project.create', payload: { name: 'lagging' }, headers: { authorization: `Bearer ${berth.token}` } });
    assert.equal(response.statusCode, 200, response.body);
    await app.close();
    assert.equal(errorOf('read models lag behind')?.message, 'projections stalled at 41');
  });

  it('logs why a followed history stopped', async () => {
    const infra = berth.berth.infrastructure;
    const unreadable = Object.create(infra.eventStore, { readFiltered: { value: async () => { throw new Error('the log is unreadable'); } } });
    const { app, errorOf } = logged({ ...infra, eventStore: unreadable });
    const response = await app.inject({ method: 'GET', url: '/api/events.follow', headers: { authorization: `Bearer ${berth.token}`, accept: 'text/event-stream' } });
    assert.equal(response.statusCode, 200, response.body);
    await app.close();
    assert.equal(errorOf('events.follow stopped')?.message, 'the log is unreadable');
  });
});
