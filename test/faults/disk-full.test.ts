// Berth on a data folder whose disk fills up (a small tmpfs of the test's own, filled with a filler
// file): a command that cannot be made durable is refused with 503 naming the full disk, nothing
// refused is in the log, queries keep answering, and everything works again once there is room,
// without a restart. A start on the full disk refuses with one line that names it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { SqliteEventStore } from '@berth/shared/adapters/sqlite/event-store';
import { SqliteReadStore } from '@berth/shared/adapters/sqlite/read-store';
import { newId } from '@berth/shared/ids';
import { prepareReadStore, projections } from '@berth/projections/catalogue';
import { ProjectionRunner } from '@berth/projections/runner';
import { ADMIN, startBerth, type TestBerth } from '../support/berth.ts';
import { eventually } from '../support/engine.ts';
import { events } from '../store/event-store-conformance.ts';
import { folderOn, mountSmallDisk, type SmallDisk } from './small-disk.ts';

const FULL = /^The disk of the data folder \(BERTH_DATA_DIR\) is full: the event log \(events\.db\) could not be written/;

describe('Berth when the disk of its data folder is full', () => {
  let disk: SmallDisk;
  let berth: TestBerth | null = null;
  let dataDir: string;
  before(async () => {
    disk = mountSmallDisk();
    dataDir = folderOn(disk, 'data');
    berth = await startBerth({ dataDir });
  });
  after(async () => {
    disk?.free();
    await berth?.stop().catch(() => {});
    disk?.unmount();
  });

  it('refuses a command and a sign-in with 503 naming the full disk, appends nothing, and still answers queries', async () => {
    const { projectId } = await berth!.ok('project.create', { name: 'before-full' });
    disk.fill();
    try {
      const refused = await berth!.refused('project.create', { name: 'while-full' }, 503);
      assert.equal(refused.code, 'UNAVAILABLE');
      assert.match(refused.message, FULL);
      const signIn = await berth!.call('auth.login', ADMIN, { token: null });
      assert.equal(signIn.status, 503, JSON.stringify(signIn.body));
      assert.match(signIn.body.message, FULL);
      const listed = await berth!.ok('project.all');
      assert.deepEqual(listed.map((project: { projectId: string }) => project.projectId), [projectId]);
    } finally {
      disk.free();
    }
  });

  it('takes commands and sign-ins again once there is room, without a restart', async () => {
    const { projectId } = await berth!.ok('project.create', { name: 'after-full' });
    assert.ok((await berth!.ok('project.all')).some((project: { projectId: string }) => project.projectId === projectId));
    assert.equal((await berth!.call('auth.login', ADMIN, { token: null })).status, 200);
  });

  it('refuses to start on the full disk with one line naming it, and starts once there is room', async () => {
    await berth!.stop({ keepData: true });
    berth = null;
    disk.fill();
    try {
      await assert.rejects(startBerth({ dataDir }), (error: Error) => {
        assert.match(error.message, FULL);
        assert.doesNotMatch(error.message, /\n/);
        return true;
      });
    } finally {
      disk.free();
    }
    berth = await startBerth({ dataDir });
    assert.equal((await berth.ok('project.all')).length, 2);
  });

  it('brings read models that could not be written up to the log once there is room', async () => {
    // The log on another disk, the read models on the full one: the projections fall behind the log.
    const source = await startBerth();
    const store = new SqliteReadStore(join(folderOn(disk, 'models'), 'read-models.db'), { cache: true });
    await prepareReadStore(store);
    const runner = new ProjectionRunner(source.berth.infrastructure.eventStore, store, projections);
    try {
      await runner.start();
      await store.waitFor(await source.head(), 5000);
      disk.fill();
      // The first writes may still fit where the read models' write-ahead log was before: until one does not.
      let projectId = '';
      for (let i = 0; i < 100 && !projectId; i++) {
        const created = await source.ok('project.create', { name: `projected-late-${i}`, description: 'x'.repeat(4000) });
        const lagging = await store.waitFor(await source.head(), 300).then(() => false, () => true);
        if (lagging) projectId = created.projectId;
      }
      assert.ok(projectId, 'the read models never fell behind the log');
      assert.equal(await store.get('project', projectId), null);
      // Still behind after several retries of the projections: then room again.
      await assert.rejects(store.waitFor(await source.head(), 1000));
      disk.free();
      await store.waitFor(await source.head(), 10_000);
      await eventually('the project in the read models', () => store.get('project', projectId));
    } finally {
      disk.free();
      await runner.stop();
      await store.close();
      await source.stop();
    }
  });

  it('writes a collection\'s first document once there is room, after the write that made its table failed', async () => {
    const store = new SqliteReadStore(join(folderOn(disk, 'tables'), 'read-models.db'), { cache: true });
    const write = (i: number) => ({ collection: `things_${i}`, id: 'one', doc: { padding: 'x'.repeat(64 * 1024) } });
    try {
      disk.fill();
      // Each write makes a new collection's table, until one fails: its table went with its rollback.
      let failed = -1;
      for (let i = 0; i < 200 && failed < 0; i++) await store.commit(['p'], i + 1, [write(i)]).catch(() => { failed = i; });
      assert.ok(failed >= 0, 'no write failed on the full disk');
      disk.free();
      await store.commit(['p'], failed + 1, [write(failed)]);
      assert.deepEqual(await store.get(`things_${failed}`, 'one'), write(failed).doc);
    } finally {
      disk.free();
      await store.close();
    }
  });

  it('copies the event log\'s write-ahead log back into its file again once there is room', async () => {
    const path = join(folderOn(disk, 'log'), 'events.db');
    const store = new SqliteEventStore(path);
    const append = () => store.append(`thing-${newId()}`, events(1, { padding: 'x'.repeat(4000) }), 'no_stream');
    try {
      await append();
      disk.fill();
      // Appends go on while the write-ahead log has room, and its copies back into the file fail.
      for (let i = 0; i < 1000 && await append().then(() => true, () => false); i++) await new Promise((resolve) => setTimeout(resolve, 5));
      await new Promise((resolve) => setTimeout(resolve, 1500));
      disk.free();
      const size = statSync(path).size;
      for (let i = 0; i < 100; i++) await append();
      // Far less than SQLite's own 1,000-page bound: only the worker's checkpoints copy it this soon.
      await eventually('the file to hold the new events', async () => statSync(path).size >= size + 100 * 4000, 5000);
    } finally {
      disk.free();
      await store.close();
    }
  });
});
