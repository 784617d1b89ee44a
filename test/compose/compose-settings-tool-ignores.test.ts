// container-compose runs the file with the compose tool, which ignores a stack's deploy settings
// (placement, update and rollback, endpoint mode, deploy labels, global mode): the deployment's log
// lists them, as a stack's lists what a stack does not use, instead of running the file otherwise unsaid.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startBerthWithReactors, type TestBerth } from '../support/berth.ts';
import { TEST_IMAGE } from '../support/engine.ts';
import { ended } from '../support/deployments.ts';
import { removeComposeProjects } from '../support/compose-projects.ts';


const WITH_STACK_SETTINGS = `services:
  web:
    image: ${TEST_IMAGE}
    deploy:
      mode: global
      replicas: 1
      placement:
        constraints: [node.role == worker]
      update_config:
        parallelism: 1
      resources:
        limits:
          memory: 64M
`;

describe('what the compose tool ignores of a file', () => {
  let berth: TestBerth;
  let projectId: string;
  const projects: string[] = [];
  before(async () => {
    berth = await startBerthWithReactors({ config: { actionWaitMs: 60_000 } });
    ({ projectId } = await berth.ok('project.create', { name: 'compose tool' }));
  });
  after(async () => {
    try {
      removeComposeProjects(projects);
    } finally {
      await berth.stop();
    }
  });

  it('a container-compose deployment logs the deploy settings the compose tool does not use', async () => {
    const { composeId, appName } = await berth.ok('compose.create', { name: 'ignored', projectId, composeType: 'container-compose', appName: 'berth-test-cs-ignored' });
    projects.push(appName);
    await berth.ok('compose.update', { composeId, composeFile: WITH_STACK_SETTINGS });
    const { deploymentId } = await berth.ok('compose.deploy', { composeId });
    const deployment = await ended(berth, deploymentId);
    assert.equal(deployment.status, 'done', deployment.reason);
    const { log } = await berth.ok('deployment.logs', { deploymentId });
    assert.match(log, /The compose tool does not use, so ignores: services\.web\.deploy\.mode, services\.web\.deploy\.placement, services\.web\.deploy\.update_config \(/);
    assert.doesNotMatch(log, /deploy\.(replicas|resources)/, 'what the tool uses is not listed');
    await berth.ok('compose.delete', { composeId });
  });
});
