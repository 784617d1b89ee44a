// A deployment's failure reason is shown by deployment.one and kept in the log's history: the
// service's secrets are masked in it as they are in the deployment's log lines.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startBerthWithReactors, type TestBerth } from '../support/berth.ts';
import { ended } from '../support/deployments.ts';

const SECRET = 'supersecret-value-123';

describe('the failure reason of a deployment', () => {
  let berth: TestBerth;
  before(async () => { berth = await startBerthWithReactors(); });
  after(() => berth.stop());

  it('masks the service\'s secrets as its log does', async () => {
    const { projectId } = await berth.ok('project.create', { name: 'masked reason' });
    const { composeId } = await berth.ok('compose.create', { name: 'leaky', projectId, composeType: 'stack' });
    // The secret lands in a port the stack cannot read: the deployment fails quoting the port.
    await berth.ok('compose.update', {
      composeId, env: `DBPASS=${SECRET}`, composeFile: 'services:\n  web:\n    image: berth-test/none\n    ports: ["${DBPASS}:8080"]\n',
    });
    const { deploymentId } = await berth.ok('compose.deploy', { composeId });
    const deployment = await ended(berth, deploymentId);
    assert.equal(deployment.status, 'error');
    assert.match(deployment.reason, /\*{8}:8080/, deployment.reason);
    assert.equal(deployment.reason.includes(SECRET), false, deployment.reason);
    assert.equal((await berth.ok('deployment.one', { deploymentId })).reason.includes(SECRET), false);
    assert.equal(JSON.stringify(await berth.ok('deployment.logs', { deploymentId })).includes(SECRET), false);
    await berth.ok('compose.delete', { composeId });
  });
});
