// What Prometheus reads of operations reached by more than one path or with the wrong method: an
// admin operation answers at `/admin.<p>` (the spec's path) and at `/api/admin.<p>`, yet it is one
// operation, so one series whose count holds both calls; a command is what the contract makes a
// POST, whatever path it came by; and a 405 (wrong method) is no command outcome.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startBerth, type TestBerth } from '../support/berth.ts';

/** Every sample line as [name{labels}, value]. */
const samples = (text: string) => text.split('\n').filter((line) => line !== '' && !line.startsWith('#'))
  .map((line) => [line.slice(0, line.lastIndexOf(' ')), Number(line.slice(line.lastIndexOf(' ') + 1))] as const);

/** The samples of `name` carrying every one of `labels`. */
const matching = (text: string, name: string, labels: Record<string, string>) => samples(text).filter(([series]) =>
  series.startsWith(`${name}{`) && Object.entries(labels).every(([key, value]) => series.includes(`${key}="${value}"`)));

describe('metrics per operation, whatever its path and method', () => {
  let berth: TestBerth;
  before(async () => { berth = await startBerth(); });
  after(() => berth.stop());

  const scrape = async () => (await berth.app.inject({ url: '/metrics' })).body;
  const post = (url: string, payload: Record<string, unknown> = {}) =>
    berth.app.inject({ method: 'POST', url, payload, headers: { authorization: `Bearer ${berth.token}` } });

  it('shows an admin operation called at /admin.<p> and at /api/admin.<p> as one series counting both, and counts both as commands', async () => {
    assert.equal((await post('/admin.assignPermissions')).statusCode, 400);
    assert.equal((await post('/api/admin.assignPermissions')).statusCode, 400);
    const text = await scrape();
    const counts = matching(text, 'berth_request_duration_seconds_count', { operation: 'admin.assignPermissions', status: '400' });
    assert.deepEqual(counts.map(([, value]) => value), [2], text);
    const commands = matching(text, 'berth_commands_total', { operation: 'admin.assignPermissions', outcome: 'rejected' });
    assert.deepEqual(commands.map(([, value]) => value), [2], text);
  });

  it('counts no command for a query called with POST (405), and shows its 405 once', async () => {
    const wrong = await post('/api/events.all');
    assert.equal(wrong.statusCode, 405, wrong.body);
    const text = await scrape();
    assert.deepEqual(matching(text, 'berth_commands_total', { operation: 'events.all' }), [], text);
    assert.deepEqual(matching(text, 'berth_request_duration_seconds_count', { operation: 'events.all', status: '405' })
      .map(([, value]) => value), [1]);
  });

  it('counts a push to deploy as a command, though no row of the contract', async () => {
    const pushed = await berth.app.inject({ method: 'POST', url: '/api/deploy/not-a-token', payload: {} });
    assert.equal(pushed.statusCode, 401);
    assert.deepEqual(matching(await scrape(), 'berth_commands_total', { operation: 'deploy/:refreshToken', outcome: 'rejected' })
      .map(([, value]) => value), [1]);
  });

  it('counts no command for a command called with the wrong method', async () => {
    const wrong = await berth.app.inject({ method: 'GET', url: '/api/project.create', headers: { authorization: `Bearer ${berth.token}` } });
    assert.equal(wrong.statusCode, 405, wrong.body);
    assert.deepEqual(matching(await scrape(), 'berth_commands_total', { operation: 'project.create' }), []);
  });

  it('writes each series once in the whole exposition', async () => {
    await berth.ok('project.create', { name: 'counted' });
    await post('/admin.assignPermissions');
    await post('/api/events.all');
    const seen = new Map<string, number>();
    for (const [series] of samples(await scrape())) seen.set(series, (seen.get(series) ?? 0) + 1);
    assert.deepEqual([...seen].filter(([, times]) => times > 1), []);
  });
});
