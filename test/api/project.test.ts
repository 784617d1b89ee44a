import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startBerth, type TestBerth } from '../support/berth.ts';

describe('project operations', () => {
  let berth: TestBerth;
  before(async () => { berth = await startBerth(); });
  after(() => berth.stop());

  it('reads a created project back at once, with its position in a header', async () => {
    const created = await berth.call('project.create', { name: 'shop', description: 'web shop' });
    assert.equal(created.status, 200);
    assert.equal(created.body.projectId.length, 21);
    assert.ok(Number(created.headers['x-berth-position']) > 0);
    const one = await berth.ok('project.one', { projectId: created.body.projectId });
    assert.equal(one.name, 'shop');
    assert.equal(one.description, 'web shop');
  });

  it('lists projects newest first', async () => {
    const first = await berth.ok('project.create', { name: 'first' });
    const second = await berth.ok('project.create', { name: 'second' });
    const ids = (await berth.ok('project.all')).map((p: { projectId: string }) => p.projectId);
    assert.ok(ids.indexOf(second.projectId) < ids.indexOf(first.projectId));
  });

  it('gives records ids that sort in the order they were created', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push((await berth.ok('project.create', { name: `ordered ${i}` })).projectId);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    assert.deepEqual([...ids].sort(), ids);
    for (const id of ids) assert.match(id, /^[A-Za-z0-9_-]{21}$/);
  });

  it('updates and removes, then answers NOT_FOUND', async () => {
    const { projectId } = await berth.ok('project.create', { name: 'old' });
    const updated = await berth.ok('project.update', { projectId, name: 'new', description: null });
    assert.equal(updated.name, 'new');
    const removed = await berth.ok('project.remove', { projectId });
    assert.equal(removed.name, 'new');
    const gone = await berth.call('project.one', { projectId });
    assert.equal(gone.status, 404);
    assert.equal(gone.body.code, 'NOT_FOUND');
  });

  it('answers NOT_FOUND for an unknown project and appends nothing', async () => {
    await berth.refused('project.update', { projectId: 'nope', name: 'x' }, 404, 'projectId');
  });
});
