import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ReadStore } from '@berth/shared/ports/read-store';
import { ReadModelMemo } from './read-model-memo.ts';

/** A store whose read models never change: only `version` is asked. */
const unchanging = { version: () => 1 } as unknown as ReadStore;

test('written answers are kept within their bytes: past the bound the oldest is worked out again, and one larger than it never kept', async () => {
  const memo = new ReadModelMemo<string>(unchanging, 100, (body) => body.length, 10);
  let worked = 0;
  const answer = (body: string) => async () => { worked += 1; return body; };
  await memo.get('a', answer('aaaaaa'));
  await memo.get('a', answer('aaaaaa'));
  assert.equal(worked, 1, 'kept while it fits');
  await memo.get('b', answer('bbbbbb')); // 12 bytes in all: a goes
  await memo.get('b', answer('bbbbbb'));
  await memo.get('a', answer('aaaaaa'));
  assert.equal(worked, 3);
  await memo.get('huge', answer('h'.repeat(11)));
  await memo.get('huge', answer('h'.repeat(11)));
  assert.equal(worked, 5, 'an answer over the bound is written each time');
});
