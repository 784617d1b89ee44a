// Push to deploy (issue test 7), with the reactors on the real engine: the refresh token is the
// credential; a push to the application's branch with autoDeploy on queues one deployment, which
// builds and runs the pushed commit; anything else is a clear 4xx and queues nothing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startBerthWithReactors, type TestBerth } from '../support/berth.ts';
import { eventually, removeDeployed } from '../support/engine.ts';
import { GOOD_CONTAINERFILE, gitRepo } from '../support/git-repo.ts';

describe('push to deploy', () => {
  let berth: TestBerth;
  let applicationId: string;
  let token: string;
  let appName: string;
  const repo = gitRepo();
  before(async () => {
    berth = await startBerthWithReactors({ config: { taskStartTimeoutMs: 20_000 } });
    const { projectId } = await berth.ok('project.create', { name: 'hooks' });
    ({ applicationId, appName } = await berth.ok('application.create', { name: 'hooked', projectId }));
    await berth.ok('application.saveGitProdiver', { applicationId, customGitUrl: repo.dir, customGitBranch: 'main' });
    ({ refreshToken: token } = await berth.ok('application.one', { applicationId }));
  });
  after(async () => {
    await eventually('every deployment to end', async () =>
      (await berth.ok('deployment.all', { applicationId })).every((d: { status: string }) => !['queued', 'running'].includes(d.status)), 90_000);
    await removeDeployed([appName]);
    await berth.stop();
    repo.remove();
  });

  const push = (refreshToken: string, payload: unknown) =>
    berth.app.inject({ method: 'POST', url: `/api/deploy/${refreshToken}`, payload: payload as object });
  const deployments = async () => (await berth.ok('deployment.all', { applicationId })).length;

  it('queues one deployment for a push to the application\'s branch, without a Bearer token, which runs the pushed commit', async () => {
    const pushed = repo.commit({ 'Containerfile': GOOD_CONTAINERFILE, 'index.html': 'pushed\n' }, 'Fix the cart\n\nlong text');
    const answer = await push(token, { ref: 'refs/heads/main', after: pushed, head_commit: { message: 'Fix the cart\n\nlong text' } });
    assert.equal(answer.statusCode, 200, answer.body);
    const deployment = answer.json();
    assert.equal(deployment.status, 'queued');
    assert.equal(deployment.trigger, 'webhook');
    assert.equal(deployment.accountId, null);
    assert.equal(deployment.title, `Push to main (${pushed.slice(0, 12)}): Fix the cart`);
    assert.equal(await deployments(), 1);
    const done = await eventually('the pushed deployment to end', async () => {
      const found = await berth.ok('deployment.one', { deploymentId: deployment.deploymentId });
      return ['done', 'error'].includes(found.status) ? found : null;
    }, 90_000);
    assert.equal(done.status, 'done', (await berth.ok('deployment.logs', { deploymentId: deployment.deploymentId })).log);
    assert.equal(done.revision, pushed);
    // The application's status follows the deployment's end a moment after it: the next test counts the log's events.
    await eventually('the application to be done', async () => (await berth.ok('application.one', { applicationId })).applicationStatus === 'done');
  });

  it('queues nothing for a wrong token, another branch, a payload without ref, or autoDeploy off', async () => {
    const before = await deployments();
    const head = await berth.head();
    const wrong = await push('not-a-token', { ref: 'refs/heads/main' });
    assert.equal(wrong.statusCode, 401);
    const branch = await push(token, { ref: 'refs/heads/feature' });
    assert.equal(branch.statusCode, 400);
    assert.deepEqual(branch.json().issues.map((issue: { path: string }) => issue.path), ['ref']);
    const ping = await push(token, { zen: 'ping' });
    assert.equal(ping.statusCode, 400);
    assert.equal(ping.json().message, 'ref is missing: the push payload names no branch (refs/heads/<branch>)');
    assert.equal((await berth.app.inject({ method: 'GET', url: `/api/deploy/${token}` })).statusCode, 405);
    assert.equal(await berth.head(), head);
    await berth.ok('application.update', { applicationId, autoDeploy: false });
    const off = await push(token, { ref: 'refs/heads/main' });
    assert.equal(off.statusCode, 409);
    assert.match(off.json().message, /^autoDeploy is off: \S+ does not deploy automatically$/);
    assert.equal(await deployments(), before);
    await berth.ok('application.update', { applicationId, autoDeploy: true });
  });

  it('stops accepting the old token at once after application.refreshToken', async () => {
    const { refreshToken } = await berth.ok('application.refreshToken', { applicationId });
    assert.notEqual(refreshToken, token);
    assert.equal((await push(token, { ref: 'refs/heads/main' })).statusCode, 401);
    assert.equal((await push(refreshToken, { ref: 'refs/heads/main' })).statusCode, 200);
  });
});
