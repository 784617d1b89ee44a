// Each `<db>.deploy` call waits for the deployment it queued and answers that one's outcome: two
// deploys asked together both answer success once their own deployment is done, the second not
// woken (and failed) by the end of the first.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startBerthWithReactors, type TestBerth } from '../support/berth.ts';
import { DATABASE_IMAGE, removeService } from '../support/database-services.ts';

describe('concurrent database deploys', { timeout: 300_000 }, () => {
  let berth: TestBerth;
  let appName = '';
  before(async () => { berth = await startBerthWithReactors({ config: { actionWaitMs: 120_000 } }); });
  after(async () => {
    if (appName) await removeService(appName);
    await berth.stop();
  });

  it('answers each call with the outcome of the deployment it queued', async () => {
    const { projectId } = await berth.ok('project.create', { name: 'own-deploy' });
    const created = await berth.ok('dbepsilon.create', {
      name: 'own', appName: 'own', projectId, containerImage: DATABASE_IMAGE.dbepsilon, databasePassword: 'Own-Deploy-Pass-1',
    });
    const dbepsilonId = created.dbepsilonId;
    appName = created.appName;

    const answers = await Promise.all([berth.call('dbepsilon.deploy', { dbepsilonId }), berth.call('dbepsilon.deploy', { dbepsilonId })]);
    for (const answer of answers) {
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.equal(answer.body.applicationStatus, 'done');
    }
    // Both answered success, and neither before its deployment ended.
    const deployments = await berth.ok('deployment.all', { databaseId: dbepsilonId });
    assert.deepEqual(deployments.map((deployment: { status: string }) => deployment.status), ['done', 'done']);
  });
});
