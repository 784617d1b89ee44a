import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileCheckpoint } from './file-checkpoint.ts';

test('a file checkpoint reads 0 until saved, then the last position saved, smaller ones included', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'berth-checkpoint-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'relay.checkpoint');
  const checkpoint = fileCheckpoint(file);
  assert.equal(await checkpoint.read(), 0);
  await checkpoint.save(1_234_567);
  await checkpoint.save(89);
  assert.equal(await fileCheckpoint(file).read(), 89, 'another reader sees the last value, with nothing of the longer one before it');
});

test('a checkpoint file an earlier Berth wrote (no padding) is read, then overwritten whole', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'berth-checkpoint-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'relay.checkpoint');
  writeFileSync(file, '987654321');
  const checkpoint = fileCheckpoint(file);
  assert.equal(await checkpoint.read(), 987_654_321);
  await checkpoint.save(5);
  assert.equal(await checkpoint.read(), 5);
  assert.equal(readFileSync(file, 'utf8').length, 20);
});
