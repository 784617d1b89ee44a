import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { DeploymentLogs } from './deployment-logs.ts';

describe('deployment logs', () => {
  it('masks the deployment\'s secrets in every line written', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'berth-logs-'));
    const logs = new DeploymentLogs(dir);
    logs.writer('d1', ['s3cret-value']).line('token s3cret-value used');
    assert.equal((await logs.readBytes('d1', 0, 1000)).toString(), 'token ******** used\n');
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads at most the bytes asked for from an offset, none past the end or without a log', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'berth-logs-'));
    const logs = new DeploymentLogs(dir);
    assert.equal((await logs.readBytes('d1', 0, 10)).length, 0);
    logs.writer('d1', []).line('é and more');
    assert.deepEqual(await logs.readBytes('d1', 1, 3), Buffer.from('é and more\n').subarray(1, 4));
    assert.equal((await logs.readBytes('d1', 12, 10)).length, 0);
    rmSync(dir, { recursive: true, force: true });
  });

  it('hands a log out in chunks up to the size asked, and nothing without a log', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'berth-logs-'));
    const logs = new DeploymentLogs(dir);
    const collect = async (upTo: number) => { const parts: Buffer[] = []; for await (const chunk of logs.chunks('d1', upTo)) parts.push(chunk); return parts; };
    assert.deepEqual(await collect(10), []);
    const writer = logs.writer('d1', []);
    for (let index = 0; index < 200; index++) writer.line('x'.repeat(999));
    const parts = await collect(150_000);
    assert.ok(parts.every((part) => part.length <= 64 * 1024));
    assert.equal(Buffer.concat(parts).length, 150_000);
    rmSync(dir, { recursive: true, force: true });
  });

  it('loses a line it cannot write instead of throwing: a build\'s output handler would end the process', () => {
    const dir = mkdtempSync(join(tmpdir(), 'berth-logs-'));
    const writer = new DeploymentLogs(dir).writer('d1', []);
    rmSync(dir, { recursive: true, force: true });
    assert.doesNotThrow(() => writer.line('after the folder went'));
  });
});
