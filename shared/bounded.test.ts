import assert from 'node:assert/strict';
import { test } from 'node:test';
import { addNewest, dropOldest, setNewest, WeighedMap } from './bounded.ts';

test('a bounded map drops its least recently set entry, through refreshes, removals and a clear', () => {
  const map = new Map<string, number>();
  for (let i = 0; i < 5; i++) setNewest(map, `k${i}`, i, 5);
  setNewest(map, 'k0', 10, 5); // k0 is the newest now: k1 is the oldest
  setNewest(map, 'k5', 5, 5);
  assert.deepEqual([...map.keys()], ['k2', 'k3', 'k4', 'k0', 'k5']);
  map.delete('k2');
  map.delete('k3');
  setNewest(map, 'k6', 6, 4);
  setNewest(map, 'k7', 7, 4);
  assert.deepEqual([...map.keys()], ['k0', 'k5', 'k6', 'k7']);
  assert.deepEqual(dropOldest(map), ['k0', 10]);
  map.clear();
  assert.equal(dropOldest(map), undefined);
  for (let i = 0; i < 3; i++) setNewest(map, `n${i}`, i, 2);
  assert.deepEqual([...map.keys()], ['n1', 'n2']);
});

test('a bounded map keeps exactly the keys set most recently, over many insertions and refreshes', () => {
  const map = new Map<number, number>();
  const order: number[] = []; // the reference: every key in the order it was last set
  for (let i = 0; i < 20_000; i++) {
    const key = i % 7 === 0 ? i - 1 : i % 11 === 0 ? i - 500 : i;
    setNewest(map, key, i, 1000);
    const at = order.indexOf(key);
    if (at >= 0) order.splice(at, 1);
    order.push(key);
  }
  assert.deepEqual([...map.keys()], order.slice(-1000));
});

test('a bounded set keeps exactly the members added most recently, over many insertions, repeats and removals', () => {
  const set = new Set<number>();
  const order: number[] = []; // the reference: members in the order they were first added since they last left
  for (let i = 0; i < 20_000; i++) {
    const value = i % 13 === 0 ? i - 3 : i; // a repeat keeps its place, as a duplicate window does
    if (i % 17 === 0 && order.length > 0) {
      set.delete(order[0]!);
      order.shift();
    }
    addNewest(set, value, 1000);
    if (!order.includes(value)) order.push(value);
    if (order.length > 1000) order.shift();
  }
  assert.deepEqual([...set], order);
});

test('a weighed map drops its oldest entries once their weight passes its bound, and never keeps one heavier than the bound', () => {
  const map = new WeighedMap<string, string>(10, 100);
  map.set('a', 'x', 40);
  map.set('b', 'x', 40);
  map.set('a', 'y', 30); // refreshed: b is the oldest now, and the total 70
  assert.equal(map.total, 70);
  map.set('c', 'x', 40); // 110: b goes
  assert.deepEqual([...map.keys()], ['a', 'c']);
  assert.equal(map.total, 70);
  map.set('huge', 'x', 101);
  assert.equal(map.has('huge'), false);
  assert.deepEqual([...map.keys()], ['a', 'c']);
  map.delete('a');
  assert.equal(map.total, 40);
  assert.equal(map.get('c'), 'x');
  map.clear();
  assert.equal(map.total, 0);
});

test('a weighed map keeps its count bound too', () => {
  const map = new WeighedMap<number, number>(3, Infinity);
  for (let i = 0; i < 10; i++) map.set(i, i, 1);
  assert.deepEqual([...map.keys()], [7, 8, 9]);
  assert.equal(map.total, 3);
});
