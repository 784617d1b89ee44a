// The deployment logs on disk follow the deployments kept: those pruned past BERTH_KEEP_DEPLOYMENTS
// and all of a deleted service's take their log files with them, a queued one cancelled leaves none.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { startDeployingBerth, until, newImageApp } from '../support/deployer.ts';
import { eventually } from '../support/engine.ts';

/** The deployments whose log file is on disk. */
const logFiles = (dataDir: string) => {
  try {
    return readdirSync(join(dataDir, 'deployments')).map((name) => name.replace(/\.log$/, '')).sort();
  } catch {
    return [];
  }
};

describe('deployment logs on disk', () => {
  it('keeps the logs of the kept deployments only, and none of a deleted service', async () => {
    const it_ = await startDeployingBerth({ config: { keepDeployments: 2 } });
    try {
      it_.double.autoFinish = true;
      const { berth } = it_;
      const applicationId = await newImageApp(berth, 'berth-test-logs-keep');
      const ids: string[] = [];
      for (let round = 0; round < 4; round++) {
        const { deploymentId } = await berth.ok('application.deploy', { applicationId });
        await until(berth, deploymentId, 'done');
        ids.push(deploymentId);
      }
      await eventually('the pruned logs to go', async () => logFiles(berth.dataDir).length === 2 || null);
      assert.deepEqual(logFiles(berth.dataDir), ids.slice(-2).sort());

      await berth.ok('application.delete', { applicationId });
      await eventually('the deleted service\'s logs to go', async () => logFiles(berth.dataDir).length === 0 || null, 10_000);
    } finally {
      await it_.stop();
    }
  });
});
