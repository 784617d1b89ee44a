// Issue tests 1 and 2 through the API, with the reactors running the real deployment work on the
// real engine: an image and a local git repository, deployed, stopped, started, reloaded, broken,
// rolled back and deleted.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startBerthWithReactors, type TestBerth } from '../support/berth.ts';
import { TEST_IMAGE, engine, eventually, httpBody, runningTasks, removeDeployed } from '../support/engine.ts';
import { GOOD_CONTAINERFILE, gitRepo } from '../support/git-repo.ts';
import { freePort } from '../support/http.ts';
import { ended } from '../support/deployments.ts';

describe('deployments through the API on the real engine', () => {
  let berth: TestBerth;
  let projectId: string;
  const services: string[] = [];
  before(async () => {
    berth = await startBerthWithReactors({ config: { actionWaitMs: 30_000, taskStartTimeoutMs: 20_000 } });
    ({ projectId } = await berth.ok('project.create', { name: 'deployments' }));
  });
  after(async () => {
    await removeDeployed(services);
    await berth.stop();
  });

  async function application(port: number) {
    const app = await berth.ok('application.create', { name: 'web', projectId });
    services.push(app.appName);
    await berth.ok('port.create', { applicationId: app.applicationId, publishedPort: port, targetPort: 8080 });
    return app as { applicationId: string; appName: string };
  }


  const status = async (applicationId: string) => (await berth.ok('application.one', { applicationId })).applicationStatus;

  it('deploys an image, serves it, stops, starts, reloads and deletes it', async () => {
    const port = await freePort();
    const { applicationId, appName } = await application(port);
    await berth.ok('application.saveContainerProvider', { applicationId, containerImage: TEST_IMAGE, username: null, password: null });

    const queued = await berth.ok('application.deploy', { applicationId });
    assert.equal(queued.status, 'queued');
    const deployment = await ended(berth, queued.deploymentId);
    assert.equal(deployment.status, 'done', deployment.reason);
    assert.ok(deployment.startedAt && deployment.finishedAt && deployment.startedAt <= deployment.finishedAt);
    assert.equal(await eventually('an answer', () => httpBody(port)), 'berth-test httpd\n');
    assert.equal(await status(applicationId), 'done');

    assert.equal((await berth.ok('application.stop', { applicationId })).applicationStatus, 'idle');
    assert.deepEqual(await runningTasks(appName), []);
    assert.equal((await berth.ok('application.start', { applicationId })).applicationStatus, 'done');
    assert.equal(await eventually('an answer after start', () => httpBody(port)), 'berth-test httpd\n');
    const [before] = await runningTasks(appName);
    await berth.ok('application.reload', { applicationId, appName });
    const [after] = await runningTasks(appName);
    assert.ok(after && after !== before, 'reload runs a new task');

    await berth.ok('application.delete', { applicationId });
    await eventually('the service to go', async () => (await engine.inspectService(appName)) === null);
  });

  it('builds a git repository, deploys a new commit, keeps serving through a broken build, and rolls back without a build', async () => {
    const repo = gitRepo();
    const port = await freePort();
    const { applicationId } = await application(port);
    await berth.ok('application.saveGitProdiver', { applicationId, customGitUrl: repo.dir, customGitBranch: 'main', customGitBuildPath: null });
    try {
      repo.commit({ 'Containerfile': GOOD_CONTAINERFILE, 'index.html': 'version 1\n' });
      const first = await ended(berth, (await berth.ok('application.deploy', { applicationId })).deploymentId);
      assert.equal(first.status, 'done', first.reason);
      assert.equal(await eventually('version 1', async () => (await httpBody(port)) === 'version 1\n'), true);

      const second = repo.commit({ 'index.html': 'version 2\n' });
      const v2 = await ended(berth, (await berth.ok('application.deploy', { applicationId })).deploymentId);
      assert.equal(v2.revision, second);
      assert.equal(await eventually('version 2', async () => (await httpBody(port)) === 'version 2\n'), true);

      repo.commit({ 'Containerfile': `${GOOD_CONTAINERFILE}COPY no-such-file /www/\n` });
      const broken = await ended(berth, (await berth.ok('application.deploy', { applicationId })).deploymentId);
      assert.equal(broken.status, 'error');
      assert.match((await berth.ok('deployment.logs', { deploymentId: broken.deploymentId })).log, /no-such-file/);
      assert.equal(await httpBody(port), 'version 2\n', 'the previous version still serves');
      assert.equal(await status(applicationId), 'error');

      const rollback = await ended(berth, (await berth.ok('deployment.rollback', { deploymentId: first.deploymentId })).deploymentId);
      assert.equal(rollback.status, 'done', rollback.reason);
      assert.doesNotMatch((await berth.ok('deployment.logs', { deploymentId: rollback.deploymentId })).log, /Step \d|Building/);
      assert.equal(await eventually('version 1 again', async () => (await httpBody(port)) === 'version 1\n'), true);
    } finally {
      repo.remove();
    }
  });
});
