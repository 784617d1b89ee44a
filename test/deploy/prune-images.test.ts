// Pruning keeps the latest N deployments of a service and drops the images of the others, on the
// real engine, but never an image a kept deployment names (a rollback target) or the service runs.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startBerthWithReactors, type TestBerth } from '../support/berth.ts';
import { ended } from '../support/deployments.ts';
import { engine, eventually, removeDeployed } from '../support/engine.ts';
import { GOOD_CONTAINERFILE, gitRepo } from '../support/git-repo.ts';

describe('pruning deployment images', () => {
  let berth: TestBerth;
  let applicationId: string;
  let appName: string;
  const repo = gitRepo();
  before(async () => {
    berth = await startBerthWithReactors({ config: { keepDeployments: 2, taskStartTimeoutMs: 20_000 } });
    const { projectId } = await berth.ok('project.create', { name: 'prune' });
    ({ applicationId, appName } = await berth.ok('application.create', { name: 'pruned', projectId }));
    await berth.ok('application.saveGitProdiver', { applicationId, customGitUrl: repo.dir, customGitBranch: 'main' });
  });
  after(async () => {
    await removeDeployed([appName]);
    await berth.stop();
    repo.remove();
  });

  const deploy = async () => ended(berth, (await berth.ok('application.deploy', { applicationId })).deploymentId);
  const tagOf = (deploymentId: string) => `berth/${appName}:deploy-${deploymentId}`;
  /** Waits until the kept deployments are `ids`, then answers the images left. */
  const settled = async (ids: string[]) => {
    await eventually(`the kept deployments to be ${ids.join(', ')}`, async () => {
      const kept = (await berth.ok('deployment.all', { applicationId })).map((d: { deploymentId: string }) => d.deploymentId);
      return kept.length === ids.length && ids.every((id) => kept.includes(id));
    });
    // The images go right after the records.
    await new Promise((resolve) => setTimeout(resolve, 300));
    return (await engine.imageTags(`berth/${appName}`)).sort();
  };

  it('drops the images of pruned deployments, keeping a rollback target\'s and the running one\'s', async () => {
    repo.commit({ 'Containerfile': GOOD_CONTAINERFILE, 'index.html': 'v1\n' });
    const d1 = await deploy();
    repo.commit({ 'index.html': 'v2\n' });
    const d2 = await deploy();
    assert.deepEqual([d1.status, d2.status], ['done', 'done']);
    const d3 = await ended(berth, (await berth.ok('deployment.rollback', { deploymentId: d1.deploymentId })).deploymentId);
    assert.equal(d3.image, tagOf(d1.deploymentId));
    // d1 pruned; its image is what the kept rollback d3 runs.
    assert.deepEqual(await settled([d3.deploymentId, d2.deploymentId]), [tagOf(d1.deploymentId), tagOf(d2.deploymentId)].sort());

    repo.commit({ 'Containerfile': `${GOOD_CONTAINERFILE}COPY no-such-file /www/\n` });
    const d4 = await deploy();
    assert.equal(d4.status, 'error');
    // d2 pruned, and nothing uses its image any more.
    assert.deepEqual(await settled([d4.deploymentId, d3.deploymentId]), [tagOf(d1.deploymentId)]);

    const d5 = await deploy();
    assert.equal(d5.status, 'error');
    // d3 pruned: no kept deployment names d1's image, but the service still runs it.
    assert.deepEqual(await settled([d5.deploymentId, d4.deploymentId]), [tagOf(d1.deploymentId)]);
    assert.equal((await engine.inspectService(appName))!.spec.TaskTemplate.ContainerSpec.Image.split('@')[0], tagOf(d1.deploymentId));
  });
});
