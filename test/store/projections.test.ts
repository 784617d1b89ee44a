// The read models under at-least-once delivery: replays change nothing, and a rebuild from the
// log gives exactly what the live projections built.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { SqliteReadStore } from '@berth/shared/adapters/sqlite/read-store';
import { aggregates } from '@berth/shared/domain/index';
import type { RecordedEvent } from '@berth/shared/events/event';
import type { Doc, ReadStore } from '@berth/shared/ports/read-store';
import { prepareReadStore, projections } from '@berth/projections/catalogue';
import { rebuildInto } from '@berth/projections/rebuild';
import { ProjectionRunner } from '@berth/projections/runner';
import { startBerth, type TestBerth } from '../support/berth.ts';
import { buildWorld } from '../e2e/world.ts';

interface Snapshot {
  readonly docs: Record<string, Doc[]>;
  readonly checkpoints: Record<string, number>;
}

/** Every document of every collection (sorted by id) and every checkpoint. */
async function snapshot(store: ReadStore): Promise<Snapshot> {
  const docs: Record<string, Doc[]> = {};
  for (const aggregate of aggregates) {
    const all = await store.all(aggregate.name);
    if (all.length > 0) {
      docs[aggregate.name] = all.sort((a, b) => String(a[aggregate.idField]).localeCompare(String(b[aggregate.idField])));
    }
  }
  const checkpoints: Record<string, number> = {};
  for (const projection of projections) checkpoints[projection.name] = await store.checkpoint(projection.name);
  return { docs, checkpoints };
}

describe('projections', () => {
  let berth: TestBerth;
  let log: readonly RecordedEvent[];
  const stores: SqliteReadStore[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'berth-projections-'));

  /** A new, empty read store prepared as the projections role prepares its own. */
  const freshStore = async () => {
    const store = new SqliteReadStore(join(dir, `read-${stores.length}.db`));
    stores.push(store);
    await prepareReadStore(store);
    return store;
  };
  const runnerOn = (store: ReadStore) => new ProjectionRunner(berth.berth.infrastructure.eventStore, store, projections);

  before(async () => {
    berth = await startBerth();
    // A history with creations, several updates of one record, and removals.
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push((await berth.ok('project.create', { name: `p${i}`, description: `d${i}` })).projectId);
    for (const projectId of ids.slice(0, 4)) {
      await berth.ok('project.update', { projectId, name: 'renamed', description: null });
      await berth.ok('project.update', { projectId, name: 'renamed again' });
    }
    for (const projectId of ids.slice(2, 5)) await berth.ok('project.remove', { projectId });
    // Every other kind of record, and a project removed with all its services.
    const reads = await buildWorld((operation, input) => berth.ok(operation, input), { projects: 2 });
    const [, doomed] = reads.find(([operation]) => operation === 'project.one')!;
    await berth.ok('project.remove', doomed);
    log = await berth.berth.infrastructure.eventStore.readAll(0, 100_000);
  });
  after(async () => {
    await berth.stop();
    for (const store of stores) await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('changes no document and no checkpoint when the same batch is applied again', async () => {
    const store = await freshStore();
    const runner = runnerOn(store);
    await runner.apply(log);
    const once = await snapshot(store);
    assert.ok(Object.keys(once.docs).includes('project'));
    await runner.apply(log);
    assert.deepEqual(await snapshot(store), once);
    for (const event of log) {
      await runner.apply([event]);
      await runner.apply([event]);
    }
    assert.deepEqual(await snapshot(store), once);
  });

  it('changes nothing when a runner without the checkpoint replays the batch: each document guards itself', async () => {
    const store = await freshStore();
    await runnerOn(store).apply(log);
    const once = await snapshot(store);
    await runnerOn(store).apply(log);
    assert.deepEqual(await snapshot(store), once);
  });

  it('builds the same documents from every event delivered twice, one at a time, as from one batch', async () => {
    const batched = await freshStore();
    await runnerOn(batched).apply(log);
    const oneByOne = await freshStore();
    const runner = runnerOn(oneByOne);
    for (const event of log) {
      await runner.apply([event]);
      await runner.apply([event]);
    }
    assert.deepEqual(await snapshot(oneByOne), await snapshot(batched));
  });

  // A removal deletes the document, so nothing in it remembers its position: a runner whose own
  // checkpoint is stale (a rolling restart) relies on the stored checkpoints, re-read every batch.
  it('does not bring a removed record back, nor move a checkpoint back, when an older event is replayed alone',
    async () => {
      const store = await freshStore();
      await runnerOn(store).apply(log);
      const once = await snapshot(store);
      const removed = log.find((event) => event.type === 'ProjectRemoved')!;
      const creation = log.find((event) => event.type === 'ProjectCreated' && event.stream === removed.stream)!;
      await runnerOn(store).apply([creation]);
      assert.deepEqual(await snapshot(store), once);
    });

  it('rebuilds from the log the very documents the live projections hold', async () => {
    const live = berth.berth.infrastructure.readStore;
    await live.waitFor(await berth.head(), 5000);
    const rebuilt = await freshStore();
    assert.equal(await rebuildInto(berth.berth.infrastructure.eventStore, rebuilt, 7), log.length);
    const expected = await snapshot(live);
    assert.ok(Object.keys(expected.docs).length >= 12, `the live store holds only ${Object.keys(expected.docs).join(', ')}`);
    assert.deepEqual(await snapshot(rebuilt), expected);
  });

  it('rebuilds into a store that already holds documents, dropping what the log no longer has', async () => {
    const store = await freshStore();
    await store.commit([], 0, [{ collection: 'project', id: 'stale', doc: { projectId: 'stale', name: 'left over' } }]);
    await rebuildInto(berth.berth.infrastructure.eventStore, store);
    assert.equal(await store.get('project', 'stale'), null);
    assert.deepEqual(await snapshot(store), await snapshot(berth.berth.infrastructure.readStore));
  });
});
