import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newId, newTimeOrderedId } from './ids.ts';

test('time-ordered ids sort in the order of the times they were made, by plain text comparison', () => {
  const times = [0, 1, 63, 64, 1_700_000_000_000, Date.now(), Date.now() + 1, 2 ** 48 - 1];
  const ids = times.map((time) => newTimeOrderedId(time));
  for (let i = 1; i < ids.length; i++) assert.ok(ids[i - 1]! < ids[i]!, `${ids[i - 1]} < ${ids[i]}`);
  for (const id of ids) assert.match(id, /^[A-Za-z0-9_-]{21}$/);
});

test('ids made in the same millisecond differ', () => {
  const now = Date.now();
  const ids = new Set(Array.from({ length: 10_000 }, () => newTimeOrderedId(now)));
  assert.equal(ids.size, 10_000);
  assert.match(newId(), /^[A-Za-z0-9_-]{21}$/);
});
