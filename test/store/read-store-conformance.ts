// What every ReadStore adapter must do, as one suite each adapter runs. `fresh` gives an empty
// store location; `open` may be called more than once on it, as several processes would.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { newId } from '@berth/shared/ids';
import { docKey, type Doc, type DocWrite, type ReadStore } from '@berth/shared/ports/read-store';

export interface ReadStoreLocation {
  open(): Promise<ReadStore>;
  dispose?(): Promise<void>;
}

const put = (collection: string, id: string, doc: Doc | null): DocWrite => ({ collection, id, doc });
const byId = (docs: Doc[]) => [...docs].sort((a, b) => String(a.id).localeCompare(String(b.id)));

export function readStoreConformance(name: string, fresh: () => Promise<ReadStoreLocation>): void {
  describe(`read store conformance: ${name}`, () => {
    let location: ReadStoreLocation;
    let store: ReadStore;
    const opened: ReadStore[] = [];
    const another = async () => {
      const other = await location.open();
      opened.push(other);
      return other;
    };
    before(async () => {
      location = await fresh();
      store = await location.open();
      await store.ensureIndex('things', 'owner');
      await store.ensureIndex('things', 'size');
      await store.ensureIndex('things', 'active');
    });
    beforeEach(() => store.clear());
    after(async () => {
      for (const other of opened) await other.close();
      await store.close();
      await location.dispose?.();
    });

    it('reads back what was committed, and null for what never was', async () => {
      const doc = { id: 'a', owner: 'o1', nested: { list: [1, 'two', null], deep: { 'a.b': true, $x: 1 } }, text: 'é \u0000 "q"' };
      await store.commit(['p'], 10, [put('things', 'a', doc)]);
      assert.deepEqual(await store.get('things', 'a'), doc);
      assert.equal(await store.get('things', 'missing'), null);
      assert.equal(await store.get('other', 'a'), null);
    });

    it('replaces a document whole and deletes one written as null', async () => {
      await store.commit(['p'], 10, [put('things', 'a', { id: 'a', owner: 'o1', size: 1 }), put('things', 'b', { id: 'b' })]);
      await store.commit(['p'], 20, [put('things', 'a', { id: 'a', owner: 'o2' }), put('things', 'b', null)]);
      assert.deepEqual(await store.get('things', 'a'), { id: 'a', owner: 'o2' });
      assert.equal(await store.get('things', 'b'), null);
      assert.deepEqual(await store.all('things'), [{ id: 'a', owner: 'o2' }]);
      assert.deepEqual(await store.find('things', 'owner', 'o1'), []);
    });

    it('changes nothing when the same commit is applied twice', async () => {
      const writes = [put('things', 'a', { id: 'a', owner: 'o1' }), put('things', 'b', null), put('things', 'c', { id: 'c' })];
      await store.commit(['p', 'q'], 30, writes);
      const once = { all: byId(await store.all('things')), checkpoints: await store.checkpoints() };
      await store.commit(['p', 'q'], 30, writes);
      assert.deepEqual({ all: byId(await store.all('things')), checkpoints: await store.checkpoints() }, once);
    });

    it('answers getMany with the documents that exist, keyed by collection and id', async () => {
      await store.commit(['p'], 10, [put('things', 'a', { id: 'a' }), put('others', 'a', { id: 'other a' })]);
      const found = await store.getMany([
        { collection: 'things', id: 'a' }, { collection: 'others', id: 'a' }, { collection: 'things', id: 'nope' },
      ]);
      assert.deepEqual([...found.keys()].sort(), [docKey('others', 'a'), docKey('things', 'a')].sort());
      assert.deepEqual(found.get(docKey('others', 'a')), { id: 'other a' });
      assert.equal((await store.getMany([])).size, 0);
    });

    it('finds by a string, a number or a boolean field, in that collection only', async () => {
      await store.commit(['p'], 10, [
        put('things', 'a', { id: 'a', owner: 'o1', size: 3, active: true }),
        put('things', 'b', { id: 'b', owner: 'o1', size: 4, active: false }),
        put('things', 'c', { id: 'c', owner: 'o2', size: 3, active: true }),
        put('others', 'd', { id: 'd', owner: 'o1', size: 3 }),
      ]);
      assert.deepEqual(byId(await store.find('things', 'owner', 'o1')).map((d) => d.id), ['a', 'b']);
      assert.deepEqual(byId(await store.find('things', 'size', 3)).map((d) => d.id), ['a', 'c']);
      assert.deepEqual(byId(await store.find('things', 'active', false)).map((d) => d.id), ['b']);
      assert.deepEqual(await store.find('things', 'size', '3'), [], 'a number does not match its text');
      assert.deepEqual(await store.find('things', 'owner', 'nobody'), []);
      assert.deepEqual(byId(await store.all('things')).map((d) => d.id), ['a', 'b', 'c']);
    });

    it('keeps lookups right after documents move between values', async () => {
      await store.commit(['p'], 10, [put('things', 'a', { id: 'a', owner: 'o1' })]);
      assert.equal((await store.find('things', 'owner', 'o1')).length, 1);
      await store.commit(['p'], 20, [put('things', 'a', { id: 'a', owner: 'o2' })]);
      assert.deepEqual(await store.find('things', 'owner', 'o1'), []);
      assert.deepEqual(await store.find('things', 'owner', 'o2'), [{ id: 'a', owner: 'o2' }]);
      await store.ensureIndex('things', 'owner'); // idempotent
      assert.deepEqual(await store.find('things', 'owner', 'o2'), [{ id: 'a', owner: 'o2' }]);
    });

    it('moves checkpoints forward only, each named one to the position committed', async () => {
      assert.equal(await store.checkpoint('p'), 0);
      await store.commit(['p', 'q'], 100, []);
      await store.commit(['p'], 50, [put('things', 'a', { id: 'a' })]);
      await store.commit(['q'], 2 ** 40, []);
      assert.equal(await store.checkpoint('p'), 100);
      assert.equal(await store.checkpoint('q'), 2 ** 40, 'positions are not small integers');
      assert.deepEqual(await store.checkpoints(), new Map([['p', 100], ['q', 2 ** 40]]));
    });

    it('waits until every checkpoint reaches a position, and gives up after the timeout', async () => {
      await store.commit(['p', 'q'], 10, []);
      await store.waitFor(10, 1000);
      await assert.rejects(store.waitFor(11, 100));
      const waiting = store.waitFor(30, 5000);
      await store.commit(['p'], 40, []);
      await store.commit(['q'], 30, []);
      await waiting;
    });

    it('does not count an empty store as caught up', async () => {
      await assert.rejects(store.waitFor(1, 100));
    });

    it('serves the wait and the reads of another handle on the same store (another process)', async () => {
      const reader = await another();
      await store.commit(['p'], 10, []);
      const waiting = reader.waitFor(20, 5000);
      await store.commit(['p'], 20, [put('things', 'x', { id: 'x', owner: 'o9' })]);
      await waiting;
      assert.deepEqual(await reader.get('things', 'x'), { id: 'x', owner: 'o9' });
      assert.deepEqual(await reader.find('things', 'owner', 'o9'), [{ id: 'x', owner: 'o9' }]);
      await store.commit(['p'], 30, [put('things', 'x', { id: 'x', owner: 'o8' })]);
      await reader.waitFor(30, 5000);
      assert.deepEqual(await reader.get('things', 'x'), { id: 'x', owner: 'o8' });
    });

    it('clears every document and checkpoint', async () => {
      const collection = `c${newId().replace(/[^A-Za-z0-9]/g, '')}`;
      await store.commit(['p'], 10, [put('things', 'a', { id: 'a' }), put(collection, 'b', { id: 'b' })]);
      await store.clear();
      assert.equal(await store.get('things', 'a'), null);
      assert.deepEqual(await store.all(collection), []);
      assert.equal((await store.checkpoints()).size, 0);
      assert.equal(await store.checkpoint('p'), 0);
    });

    it('writes many documents in one commit', async () => {
      const writes = Array.from({ length: 300 }, (_, i) => put('things', `d${i}`, { id: `d${i}`, owner: `o${i % 3}` }));
      await store.commit(['p'], 10, writes);
      assert.equal((await store.all('things')).length, 300);
      assert.equal((await store.find('things', 'owner', 'o1')).length, 100);
      assert.equal((await store.getMany(writes)).size, 300);
    });
  });
}
