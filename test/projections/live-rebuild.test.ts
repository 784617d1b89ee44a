// Rebuilding read models while Berth serves: under a steady load of commands and queries every
// call succeeds, a damaged document is repaired, and afterwards every document equals the one a
// fresh replay of the log gives.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SqliteReadStore } from '@berth/shared/adapters/sqlite/read-store';
import { aggregates } from '@berth/shared/domain/index';
import { SERVICE_SUMMARIES } from '@berth/shared/domain/service-kinds';
import { rebuildInto } from '@berth/projections/rebuild';
import { withoutBookkeeping } from '@berth/projections/runner';
import { buildWorld } from '../e2e/world.ts';
import { startBerth, type TestBerth } from '../support/berth.ts';

describe('projections: live rebuild', () => {
  let berth: TestBerth;
  before(async () => {
    berth = await startBerth({ config: { roles: ['projections'] } });
    await buildWorld((operation, input) => berth.ok(operation, input), { projects: 1 });
  });
  after(() => berth.stop());

  const sorted = (docs: Array<Record<string, unknown>>) => docs.map((doc) => JSON.stringify(withoutBookkeeping(doc))).sort();

  it('keeps answering under load, repairs a damaged document, and matches a fresh replay', async () => {
    const { readStore, eventStore } = berth.berth.infrastructure;
    const [project] = await readStore.all('project');
    // Damage the live model the way a projection bug would.
    await readStore.commit([], 0, [{ collection: 'project', id: String(project!.projectId), doc: { ...project, name: 'damaged' } }]);
    assert.equal((await berth.ok('project.one', { projectId: project!.projectId })).name, 'damaged');

    let running = true;
    const failures: string[] = [];
    let calls = 0;
    const load = (async () => {
      for (let i = 0; running; i++) {
        const created = await berth.call('project.create', { name: `load ${i}` });
        const read = await berth.call('project.one', { projectId: created.body.projectId });
        const listed = await berth.call('project.all', {});
        for (const answer of [created, read, listed]) if (answer.status !== 200) failures.push(JSON.stringify(answer.body));
        calls += 3;
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const rebuilt = await berth.ok('projections.rebuild', {});
    await new Promise((resolve) => setTimeout(resolve, 100));
    running = false;
    await load;
    assert.deepEqual(failures, []);
    assert.ok(calls > 6, `the load ran (${calls} calls)`);
    assert.equal(rebuilt.status, 'done');
    assert.ok(rebuilt.documents > 10);

    assert.notEqual((await berth.ok('project.one', { projectId: project!.projectId })).name, 'damaged');
    await readStore.waitFor(await eventStore.head(), 5000);
    const fresh = new SqliteReadStore(':memory:');
    await rebuildInto(eventStore, fresh);
    for (const { name } of aggregates) {
      assert.deepEqual(sorted(await readStore.all(name)), sorted(await fresh.all(name)), name);
    }
    await fresh.close();
  });

  it('rebuilds one projection by name, and answers 404 naming the field for one that does not exist', async () => {
    const one = await berth.ok('projections.rebuild', { name: 'entity:application' });
    assert.equal(one.name, 'entity:application');
    assert.equal(one.status, 'done');
    const head = await berth.head();
    const missing = await berth.call('projections.rebuild', { name: 'entity:nothing' });
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.body.issues.map((issue: { path: string }) => issue.path), ['name']);
    assert.equal(await berth.head(), head);
  });

  it('rebuilt alone, the service summaries lose one no service of the log has, even with no service left', async () => {
    const empty = await startBerth({ config: { roles: ['projections'] } });
    try {
      const { readStore } = empty.berth.infrastructure;
      await empty.ok('project.create', { name: 'no services' });
      // A summary of a service the log does not know, as a projection bug would leave one.
      await readStore.commit([], 0, [{ collection: SERVICE_SUMMARIES, id: 'ghost', doc: { kind: 'applications', name: 'ghost' } }]);
      assert.ok(await readStore.get(SERVICE_SUMMARIES, 'ghost'));
      assert.equal((await empty.ok('projections.rebuild', { name: 'serviceSummaries' })).status, 'done');
      assert.equal(await readStore.get(SERVICE_SUMMARIES, 'ghost'), null);
    } finally {
      await empty.stop();
    }
  });
});
