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
    assert.equal(await logs.read('d1'), 'token ******** used\n');
    rmSync(dir, { recursive: true, force: true });
  });

  it('loses a line it cannot write instead of throwing: a build\'s output handler would end the process', () => {
    const dir = mkdtempSync(join(tmpdir(), 'berth-logs-'));
    const writer = new DeploymentLogs(dir).writer('d1', []);
    rmSync(dir, { recursive: true, force: true });
    assert.doesNotThrow(() => writer.line('after the folder went'));
  });
});
