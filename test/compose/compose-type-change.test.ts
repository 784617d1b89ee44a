// A compose service whose composeType changed after a deploy: stop stops what the engine still runs
// of the other kind, and the next deploy removes that kind before this one comes up, so the two never
// run side by side (or both hold the host port), and stop never answers idle while one runs.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { startBerthWithReactors, type TestBerth } from '../support/berth.ts';
import { TEST_IMAGE, eventually } from '../support/engine.ts';
import { freePort } from '../support/http.ts';
import { removeStacks, stacks } from '../support/stacks.ts';
import { ended } from '../support/deployments.ts';

const docker = (...args: string[]) => execFileSync('docker', args, { encoding: 'utf8' }).trim();
const containers = (project: string, all = false) =>
  docker('ps', '-q', ...(all ? ['-a'] : []), '--filter', `label=com.docker.compose.project=${project}`).split('\n').filter(Boolean);
const webOn = (port: number) => `services:\n  web:\n    image: ${TEST_IMAGE}\n    ports: ["${port}:8080"]\n`;

describe('changing composeType after a deploy', () => {
  let berth: TestBerth;
  let projectId: string;
  const appNames: string[] = [];
  before(async () => {
    berth = await startBerthWithReactors({ config: { actionWaitMs: 60_000, taskStartTimeoutMs: 60_000 } });
    ({ projectId } = await berth.ok('project.create', { name: 'type change' }));
  });
  after(async () => {
    try {
      for (const appName of appNames) {
        const left = containers(appName, true);
        if (left.length > 0) docker('rm', '-f', ...left);
        docker('network', 'prune', '-f', '--filter', `label=com.docker.compose.project=${appName}`);
      }
      await removeStacks(appNames);
    } finally {
      await berth.stop();
    }
  });

  async function deployed(composeId: string) {
    const deployment = await ended(berth, (await berth.ok('compose.deploy', { composeId })).deploymentId);
    assert.equal(deployment.status, 'done', deployment.reason);
    return deployment as { deploymentId: string };
  }

  it('stop stops the compose project a deploy left after the type became stack; the next deploy replaces it with the stack', async () => {
    const { composeId, appName } = await berth.ok('compose.create', { name: 'switch', projectId, composeType: 'container-compose' });
    appNames.push(appName);
    await berth.ok('compose.update', { composeId, composeFile: webOn(await freePort()) });
    await deployed(composeId);
    assert.equal(containers(appName).length, 1);

    await berth.ok('compose.update', { composeId, composeType: 'stack' });
    assert.equal((await berth.ok('compose.stop', { composeId })).composeStatus, 'idle');
    assert.deepEqual(containers(appName), [], 'stop stops the project the container-compose deploy left');

    const { deploymentId } = await deployed(composeId);
    assert.deepEqual(containers(appName, true), [], 'the deploy as a stack removed the compose project');
    assert.deepEqual(await stacks.services(appName), [`${appName}_web`]);
    assert.match((await berth.ok('deployment.logs', { deploymentId })).log, /Removing the compose project a deploy as container-compose left/);

    // And back: the deploy as container-compose removes the stack.
    await berth.ok('compose.update', { composeId, composeType: 'container-compose' });
    await deployed(composeId);
    assert.deepEqual(await stacks.services(appName), []);
    assert.equal(containers(appName).length, 1);

    await berth.ok('compose.delete', { composeId });
    await eventually('the project to be removed', async () => containers(appName, true).length === 0, 60_000);
  });
});
