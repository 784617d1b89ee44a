import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import Database from 'better-sqlite3';
import { SqliteEventStore } from '@berth/shared/adapters/sqlite/event-store';
import { eventStoreConformance, events, stream } from './event-store-conformance.ts';

const dirs: string[] = [];
after(() => { for (const dir of dirs) rmSync(dir, { recursive: true, force: true }); });

for (const synchronous of ['FULL', 'NORMAL'] as const) {
  eventStoreConformance(`sqlite (synchronous ${synchronous})`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'berth-events-'));
    dirs.push(dir);
    return new SqliteEventStore(join(dir, 'events.db'), { synchronous });
  });
}

test('a subscriber reads every event in log order when two processes share the log file and their appends interleave', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'berth-events-'));
  dirs.push(dir);
  const here = new SqliteEventStore(join(dir, 'events.db'));
  const there = new SqliteEventStore(join(dir, 'events.db'));
  try {
    const appended: number[] = [];
    for (let i = 0; i < 6; i++) {
      const writer = i % 3 === 2 ? there : here;
      appended.push((await writer.append(stream(), events(2), 'no_stream')).position);
    }
    const seen: number[] = [];
    const subscription = here.subscribe(0, async (batch) => { seen.push(...batch.map((event) => event.position)); });
    const head = Math.max(...appended);
    while (!seen.includes(head)) await new Promise((resolve) => setTimeout(resolve, 10));
    await subscription.stop();
    assert.deepEqual(seen, Array.from({ length: head }, (_, i) => i + 1));
    assert.deepEqual((await here.readAll(0, 100)).map((event) => event.position), seen);
    assert.deepEqual((await here.readAll(3, 4)).map((event) => event.position), [4, 5, 6, 7]);
  } finally {
    await here.close();
    await there.close();
  }
});

test('a log made by an earlier Berth (positions from AUTOINCREMENT) keeps its events and goes on from its last position', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'berth-events-'));
  dirs.push(dir);
  const file = join(dir, 'events.db');
  const earlier = new Database(file);
  earlier.exec(`CREATE TABLE events (position INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, stream TEXT NOT NULL,
    revision INTEGER NOT NULL, type TEXT NOT NULL, data TEXT NOT NULL, metadata TEXT NOT NULL, UNIQUE (stream, revision))`);
  const insert = earlier.prepare('INSERT INTO events (id, stream, revision, type, data, metadata) VALUES (?, ?, ?, ?, ?, ?)');
  for (let i = 0; i < 3; i++) insert.run(`earlier-${i}`, 'project-earlier', i, 'ProjectUpdated', '{}', '{"actorId":null}');
  earlier.close();
  const store = new SqliteEventStore(file);
  try {
    const { position } = await store.append(stream(), events(2), 'no_stream');
    assert.equal(position, 5);
    assert.deepEqual((await store.readAll(0, 10)).map((event) => event.position), [1, 2, 3, 4, 5]);
    assert.equal((await store.readStream('project-earlier')).revision, 2);
  } finally {
    await store.close();
  }
});
