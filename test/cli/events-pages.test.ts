// `berth events` against a stand-in Berth holding two pages: the first page says on stderr how to
// get the rest, --json keeps the page's nextCursor, --all pages through; and the events group's own
// operations (`events stream`, `events all`, `events follow`) and its help are reachable.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { runBerth } from './berth-process.ts';

const event = (position: number) => ({
  id: `e${position}`, type: 'ProjectCreated', stream: 'project-p1', revision: position, position, data: {},
  metadata: { actorId: 'u1', correlationId: 'c', causationId: null, occurredAt: '2026-01-01T00:00:00.000Z', schemaVersion: 1 },
});
const seen: string[] = [];
const server = createServer((request, response) => {
  request.resume();
  const url = new URL(request.url ?? '/', 'http://berth');
  seen.push(`${url.pathname.replace('/api/', '')}${url.search}`);
  const second = url.searchParams.get('cursor') === 'c2';
  const body = url.pathname === '/api/events.stream'
    ? { stream: url.searchParams.get('stream'), revision: 1, events: [event(1)] }
    : { events: second ? [event(3)] : [event(1), event(2)], nextCursor: second ? null : 'c2', head: 3 };
  response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
});
const home = mkdtempSync(join(tmpdir(), 'berth-events-pages-'));
const run = (...args: string[]) => runBerth({ BERTH_CONFIG: join(home, 'config.json'), BERTH_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, BERTH_TOKEN: 'token' }, ...args);

before(() => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve)));
after(() => {
  server.close();
  rmSync(home, { recursive: true, force: true });
});

test('a first page says on stderr how to get the rest', async () => {
  const page = await run('events');
  assert.equal(page.code, 0, page.stderr);
  assert.match(page.stdout, /ProjectCreated/);
  assert.match(page.stderr, /--cursor c2/);
  assert.match(page.stderr, /--all/);
});

test('--json keeps the page\'s nextCursor; --all pages through and leaves none', async () => {
  const page = await run('events', '--json');
  assert.equal(page.code, 0, page.stderr);
  const first = JSON.parse(page.stdout);
  assert.deepEqual(first.events.map((one: { position: number }) => one.position), [1, 2]);
  assert.equal(first.nextCursor, 'c2');
  const rest = await run('events', '--cursor', 'c2', '--json');
  assert.deepEqual(JSON.parse(rest.stdout), { events: [event(3)], nextCursor: null });
  const all = await run('events', '--all', '--json');
  assert.equal(all.code, 0, all.stderr);
  assert.deepEqual(JSON.parse(all.stdout), { events: [event(1), event(2), event(3)], nextCursor: null });
  assert.equal(all.stderr, '');
});

test('berth events --help shows the special command and the group\'s operations', async () => {
  const help = await run('events', '--help');
  assert.equal(help.code, 0, help.stderr);
  assert.match(help.stdout, /^berth events \[list\|tail\|export\]/m);
  assert.match(help.stdout, /^ {2}berth events stream --stream --cursor --limit$/m);
});

test('the events group\'s own operations run as any other operation', async () => {
  const stream = await run('events', 'stream', '--stream', 'project-p1', '--json');
  assert.equal(stream.code, 0, stream.stderr);
  assert.equal(JSON.parse(stream.stdout).stream, 'project-p1');
  assert.equal(seen.at(-1), 'events.stream?stream=project-p1');
  const all = await run('events', 'all', '--limit', '5', '--json');
  assert.equal(all.code, 0, all.stderr);
  assert.equal(JSON.parse(all.stdout).head, 3);
  const follow = await run('events', 'follow', '--json');
  assert.equal(follow.code, 0, follow.stderr);
  assert.equal(seen.at(-1), 'events.follow');
  const wrong = await run('events', 'nothing');
  assert.equal(wrong.code, 2);
  assert.match(wrong.stderr, /no operation "nothing" in events/);
});
