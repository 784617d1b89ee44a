// A compose service whose first deploy failed leaves no container or network of its project
// behind (its named volumes and built images stay, under its appName: so the appName stays too).
// (A stack whose `<appName>_<service>` is longer than the engine takes is refused on save now:
// test/compose/stack-file-checked-on-save.test.ts.)
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { startBerthWithReactors, type TestBerth } from '../support/berth.ts';
import { TEST_IMAGE } from '../support/engine.ts';
import { freePort } from '../support/http.ts';
import { ended } from '../support/deployments.ts';

const docker = (...args: string[]) => execFileSync('docker', args, { encoding: 'utf8' }).trim();
const labelled = (kind: 'container' | 'network', project: string) =>
  docker(kind, 'ls', '-q', ...(kind === 'container' ? ['-a'] : []), '--filter', `label=com.docker.compose.project=${project}`).split('\n').filter(Boolean);

describe('a failed first deploy of a compose service', () => {
  let berth: TestBerth;
  let projectId: string;
  let holder: Server;
  const projects: string[] = [];
  before(async () => {
    berth = await startBerthWithReactors({ config: { actionWaitMs: 60_000, taskStartTimeoutMs: 30_000 } });
    ({ projectId } = await berth.ok('project.create', { name: 'failed first' }));
    holder = createServer();
  });
  after(async () => {
    try {
      for (const project of projects) {
        const left = labelled('container', project);
        if (left.length > 0) docker('rm', '-f', ...left);
        docker('network', 'prune', '-f', '--filter', `label=com.docker.compose.project=${project}`);
      }
      holder.close();
    } finally {
      await berth.stop();
    }
  });

  it('removes the containers and networks the failed deploy created, and keeps its appName, which its volumes carry', async () => {
    // A host port another program holds: the project's network and container are created, the start fails.
    const port = await freePort();
    await new Promise<void>((resolve) => holder.listen(port, '0.0.0.0', resolve));
    const { composeId, appName } = await berth.ok('compose.create', { name: 'first', projectId, composeType: 'container-compose' });
    projects.push(appName);
    await berth.ok('compose.update', {
      composeId, composeFile: `services:\n  web:\n    image: ${TEST_IMAGE}\n    ports: ["${port}:8080"]\n    networks: [back]\nnetworks:\n  back: {}\n`,
    });
    const deployment = await ended(berth, (await berth.ok('compose.deploy', { composeId })).deploymentId);
    assert.equal(deployment.status, 'error');
    assert.deepEqual(labelled('container', appName), [], 'the created container is removed');
    assert.deepEqual(labelled('network', appName), [], 'the network is removed');

    await berth.refused('compose.update', { composeId, appName: `${appName}-renamed` }, 409, 'appName');
    await berth.ok('compose.delete', { composeId });
  });
});
