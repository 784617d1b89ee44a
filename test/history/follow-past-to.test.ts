// A follow whose `to` has passed has nothing more to wait for: it sends what the selection holds
// and ends (the event stream closes; the long poll answers at once, with no nextCursor).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { RecordedEvent } from '@berth/shared/events/event';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listeningBerth, signInFirstAdmin, type HttpClient, type ListeningBerth } from '../support/http.ts';
import { runBerth } from '../cli/berth-process.ts';

const ADMIN = { email: 'bounded@berth.test', password: 'a long enough password' };

const within = <T>(ms: number, promise: Promise<T>, what: string) => Promise.race([
  promise, new Promise<never>((_resolve, reject) => setTimeout(() => reject(new Error(`${what} took over ${ms} ms`)), ms).unref()),
]);

describe('events.follow with a to that has passed', () => {
  let server: ListeningBerth;
  let api: HttpClient;
  let to: string;
  before(async () => {
    server = await listeningBerth();
    api = await signInFirstAdmin(server, ADMIN);
    for (const name of ['one', 'two', 'three']) await api.ok('project.create', { name });
    to = new Date(Date.now() + 1).toISOString();
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await api.ok('project.create', { name: 'after to' });
  });
  after(() => server.stop());

  it('sends the selection\'s events as server-sent events, then ends the stream', async () => {
    const response = await fetch(`${api.baseUrl}/api/events.follow?${new URLSearchParams({ type: 'ProjectCreated', to })}`, {
      headers: { authorization: `Bearer ${api.token}`, accept: 'text/event-stream' },
    });
    assert.equal(response.status, 200);
    const text = await within(5000, response.text(), 'the stream to end');
    assert.equal(text.match(/^event: ProjectCreated$/gm)?.length, 3, text);
    assert.match(text, /event: end-of-selection\ndata: \{\}\n\n$/, 'the end said, not a connection cut');
  });

  it('ends berth events tail --to: the events printed, exit 0, no reconnecting', async () => {
    const home = mkdtempSync(join(tmpdir(), 'berth-tail-to-'));
    try {
      const tail = await within(20_000, runBerth({ BERTH_CONFIG: join(home, 'config.json'), BERTH_URL: api.baseUrl, BERTH_TOKEN: api.token! },
        'events', 'tail', '--type', 'ProjectCreated', '--to', to, '--json'), 'the tail to end');
      assert.equal(tail.code, 0, tail.stderr);
      assert.equal(tail.stdout.trim().split('\n').length, 3, tail.stdout);
      assert.equal(tail.stderr, '');
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  it('answers a long poll at once, with the events and no cursor to poll on', async () => {
    const started = Date.now();
    const page = await within(5000, api.ok('events.follow', { type: 'ProjectCreated', to }), 'the long poll');
    assert.ok(Date.now() - started < 5000);
    assert.equal(page.events.length, 3);
    assert.ok(page.events.every((event: RecordedEvent) => event.metadata.occurredAt < to));
    assert.equal(page.nextCursor, null);
  });
});
