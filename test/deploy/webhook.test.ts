// Push to deploy: the refresh token is the credential; only a push to the application's branch
// with autoDeploy on queues a deployment, anything else is a clear 4xx and queues nothing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startBerth, type TestBerth } from '../support/berth.ts';

describe('push to deploy', () => {
  let berth: TestBerth;
  let applicationId: string;
  let token: string;
  before(async () => {
    berth = await startBerth();
    const { projectId } = await berth.ok('project.create', { name: 'hooks' });
    ({ applicationId } = await berth.ok('application.create', { name: 'hooked', projectId }));
    await berth.ok('application.saveGitProdiver', { applicationId, customGitUrl: 'https://git.example.test/shop.git', customGitBranch: 'main' });
    ({ refreshToken: token } = await berth.ok('application.one', { applicationId }));
  });
  after(() => berth.stop());

  const push = (refreshToken: string, payload: unknown) =>
    berth.app.inject({ method: 'POST', url: `/api/deploy/${refreshToken}`, payload: payload as object });
  const deployments = async () => (await berth.ok('deployment.all', { applicationId })).length;

  it('queues one deployment for a push to the application\'s branch, without a Bearer token', async () => {
    const answer = await push(token, { ref: 'refs/heads/main', after: '0123456789abcdef', head_commit: { message: 'Fix the cart\n\nlong text' } });
    assert.equal(answer.statusCode, 200, answer.body);
    const deployment = answer.json();
    assert.equal(deployment.status, 'queued');
    assert.equal(deployment.trigger, 'webhook');
    assert.equal(deployment.accountId, null);
    assert.equal(deployment.title, 'Push to main (0123456789ab): Fix the cart');
    assert.equal(await deployments(), 1);
  });

  it('queues nothing for a wrong token, another branch, a payload without ref, or autoDeploy off', async () => {
    const before = await deployments();
    const head = await berth.head();
    const wrong = await push('not-a-token', { ref: 'refs/heads/main' });
    assert.equal(wrong.statusCode, 401);
    const branch = await push(token, { ref: 'refs/heads/feature' });
    assert.equal(branch.statusCode, 400);
    assert.deepEqual(branch.json().issues.map((issue: { path: string }) => issue.path), ['ref']);
    assert.equal((await push(token, { zen: 'ping' })).statusCode, 400);
    assert.equal((await berth.app.inject({ method: 'GET', url: `/api/deploy/${token}` })).statusCode, 405);
    assert.equal(await berth.head(), head);
    await berth.ok('application.update', { applicationId, autoDeploy: false });
    const off = await push(token, { ref: 'refs/heads/main' });
    assert.equal(off.statusCode, 409);
    assert.match(off.json().message, /autoDeploy is off/);
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
