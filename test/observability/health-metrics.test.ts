// What an operator's monitoring sees: liveness, readiness that turns when the log is gone,
// Prometheus metrics that move with the commands, and a JSON log line per request carrying the
// correlation id that the request's events carry too.
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { buildServer } from '@berth/command-api/server';
import { startBerth, type TestBerth } from '../support/berth.ts';

/** The value of one sample line of a Prometheus text exposition, 0 when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${name}{`) || candidate.startsWith(`${name} `)
    ? wanted.every((label) => candidate.includes(label)) : false);
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
}

describe('health, readiness and metrics', () => {
  let berth: TestBerth;
  before(async () => { berth = await startBerth(); });
  after(() => berth.stop());

  const scrape = async () => {
    const response = await berth.app.inject({ method: 'GET', url: '/metrics' });
    assert.equal(response.statusCode, 200);
    assert.match(String(response.headers['content-type']), /^text\/plain; version=0\.0\.4/);
    return response.body;
  };

  it('answers /health while the process lives, and /ready while the stores answer', async () => {
    assert.deepEqual((await berth.app.inject({ url: '/health' })).json(), { status: 'ok' });
    const ready = await berth.app.inject({ url: '/ready' });
    assert.equal(ready.statusCode, 200, ready.body);
    assert.equal(ready.json().status, 'ready');
  });

  it('moves the request histogram and the command counters when commands run', async () => {
    const before = await scrape();
    for (let i = 0; i < 3; i++) await berth.ok('project.create', { name: `metered ${i}` });
    await berth.call('project.create', { name: '' });
    const after = await scrape();
    const ok = { operation: 'project.create', outcome: 'ok' };
    assert.equal(sample(after, 'berth_commands_total', ok) - sample(before, 'berth_commands_total', ok), 3);
    const rejected = { operation: 'project.create', outcome: 'rejected' };
    assert.equal(sample(after, 'berth_commands_total', rejected) - sample(before, 'berth_commands_total', rejected), 1);
    const count = { operation: 'project.create', status: '200' };
    assert.equal(sample(after, 'berth_request_duration_seconds_count', count) - sample(before, 'berth_request_duration_seconds_count', count), 3);
    assert.equal(sample(after, 'berth_log_head_position'), await berth.head());
    assert.equal(sample(after, 'berth_consumer_lag_events', { consumer: 'entity:project' }), 0);
  });

  it('writes one JSON log line per request with the correlation id its events carry', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const stream = new PassThrough();
    stream.on('data', (chunk: Buffer) => lines.push(...chunk.toString().split('\n').filter(Boolean).map((line) => JSON.parse(line))));
    const infra = berth.berth.infrastructure;
    const app = buildServer({ ...infra, config: { ...infra.config, logLevel: 'info' } }, { logStream: stream });
    const response = await app.inject({
      method: 'POST', url: '/api/project.create', payload: { name: 'logged' },
      headers: { authorization: `Bearer ${berth.token}`, 'x-correlation-id': 'ops-trace-7' },
    });
    assert.equal(response.statusCode, 200);
    await app.close();
    const line = lines.find((candidate) => candidate.msg === 'answered');
    assert.ok(line, JSON.stringify(lines));
    assert.equal(line.correlationId, 'ops-trace-7');
    assert.equal(line.operation, 'project.create');
    assert.equal(line.status, 200);
    const [event] = await berth.berth.infrastructure.eventStore.readFiltered({ stream: `project-${response.json().projectId}` }, 0, 10);
    assert.equal(event!.metadata.correlationId, 'ops-trace-7');
  });

  it('writes no request line below the operator\'s level, and still logs a failed request with its correlation id', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const stream = new PassThrough();
    stream.on('data', (chunk: Buffer) => lines.push(...chunk.toString().split('\n').filter(Boolean).map((line) => JSON.parse(line))));
    const infra = berth.berth.infrastructure;
    // A log that refuses every append: the command fails with a 500, which is logged as an error.
    const failing = Object.create(infra.eventStore, { append: { value: async () => { throw new Error('disk full'); } } });
    const app = buildServer({ ...infra, eventStore: failing, config: { ...infra.config, logLevel: 'warn' } }, { logStream: stream });
    const headers = { authorization: `Bearer ${berth.token}` };
    const read = await app.inject({ method: 'GET', url: '/api/project.all', headers: { ...headers, 'x-correlation-id': 'quiet-1' } });
    assert.equal(read.statusCode, 200);
    const failed = await app.inject({
      method: 'POST', url: '/api/project.create', payload: { name: 'unlucky' }, headers: { ...headers, 'x-correlation-id': 'loud-2' },
    });
    assert.equal(failed.statusCode, 500);
    await app.close();
    assert.equal(lines.filter((line) => line.correlationId === 'quiet-1').length, 0, JSON.stringify(lines));
    const error = lines.find((line) => line.correlationId === 'loud-2');
    assert.ok(error, JSON.stringify(lines));
    assert.equal(error.level, 50);
    assert.match(JSON.stringify(error), /disk full/);
  });

  it('turns unready, naming the event store, once the event store is closed', async () => {
    await berth.berth.infrastructure.eventStore.close();
    const ready = await berth.app.inject({ url: '/ready' });
    assert.equal(ready.statusCode, 503);
    const body = ready.json();
    assert.equal(body.status, 'unready');
    assert.equal(body.checks.eventStore.ok, false);
    assert.equal((await berth.app.inject({ url: '/health' })).statusCode, 200);
  });
});
