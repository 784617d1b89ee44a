import assert from 'node:assert/strict';
import { test } from 'node:test';
import { StateCache } from './state-cache.ts';

const state = (revision: number) => ({ state: { revision }, revision });

test('a burst of creations does not push out the streams in use', () => {
  const cache = new StateCache();
  const inUse = Array.from({ length: 100 }, (_, i) => `project-used-${i}`);
  for (const stream of inUse) {
    cache.set(stream, state(0));
    cache.get(stream); // a second use
  }
  for (let i = 0; i < 50_000; i++) {
    const created = `project-new-${i}`;
    cache.set(created, { state: null, revision: -1 }); // known empty
    cache.get(created); // its creation decides against the empty stream
    cache.set(created, state(0));
  }
  for (const stream of inUse) assert.deepEqual(cache.get(stream), state(0), stream);
  assert.equal(cache.get('project-new-0'), undefined);
  assert.deepEqual(cache.get('project-new-49999'), state(0));
});

test('holds a bounded number of streams, the least recently used going first', () => {
  const cache = new StateCache();
  for (let i = 0; i < 20_000; i++) {
    cache.set(`s-${i}`, state(1));
    cache.get(`s-${i}`);
  }
  assert.deepEqual(cache.get('s-19999'), state(1));
  assert.equal(cache.get('s-0'), undefined);
  cache.forget('s-19999');
  assert.equal(cache.get('s-19999'), undefined);
});
