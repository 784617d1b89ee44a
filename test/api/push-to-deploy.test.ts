// Push to deploy without the reactors (a queued deployment is the answer): which pushes deploy an
// application that follows its repository's default branch, and what no token or push can do.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { contract } from '@berth/shared/contract/index';
import { startBerth, type TestBerth } from '../support/berth.ts';

describe('push to deploy, deciding what a push deploys', () => {
  let berth: TestBerth;
  let applicationId: string;
  let token: string;
  before(async () => {
    berth = await startBerth();
    const { projectId } = await berth.ok('project.create', { name: 'pushes' });
    ({ applicationId } = await berth.ok('application.create', { name: 'follows-default', projectId }));
    // No branch named: the clone takes the repository's default branch.
    await berth.ok('application.saveGitProdiver', { applicationId, customGitUrl: 'https://git.example.com/shop.git', customGitBranch: null });
    await berth.ok('application.update', { applicationId, autoDeploy: true });
    ({ refreshToken: token } = await berth.ok('application.one', { applicationId }));
  });
  after(() => berth.stop());

  const push = (refreshToken: string, payload: unknown) =>
    berth.app.inject({ method: 'POST', url: `/api/deploy/${encodeURIComponent(refreshToken)}`, payload: payload as object });

  /** The push is refused with `status` naming `field`, and nothing is appended. */
  const refused = async (payload: unknown, status: number, field: string) => {
    const head = await berth.head();
    const answer = await push(token, payload);
    assert.equal(answer.statusCode, status, answer.body);
    assert.deepEqual(answer.json().issues.map((issue: { path: string }) => issue.path), [field]);
    assert.equal(await berth.head(), head);
  };

  it('answers 401, not 500, to a token of as many characters but other bytes', async () => {
    for (const forged of ['é'.repeat(token.length), '\u{1F600}'.repeat(token.length / 2)]) {
      const answer = await push(forged, { ref: 'refs/heads/main' });
      assert.equal(answer.statusCode, 401, `${forged}: ${answer.body}`);
    }
  });

  it('answers 401 to a wrong token before reading the body: unreadable JSON, or not JSON at all', async () => {
    for (const url of ['/api/deploy/not-a-token', '/api/deploy/compose/not-a-token']) {
      for (const [contentType, payload] of [['application/json', '{"ref": '], ['text/plain', 'ref=refs/heads/main']] as const) {
        const answer = await berth.app.inject({ method: 'POST', url, headers: { 'content-type': contentType }, payload });
        assert.equal(answer.statusCode, 401, `${url} ${contentType}: ${answer.body}`);
      }
    }
  });

  it('words its refusals "<field> <rest>"', async () => {
    const deleted = await push(token, { ref: 'refs/heads/main', deleted: true, repository: { default_branch: 'main' } });
    assert.equal(deleted.json().message, 'deleted is true: the push deletes refs/heads/main; nothing deployed');
  });

  it('answers a deployment with the fields a deploy answers, no others', async () => {
    const answer = await push(token, {});
    assert.equal(answer.statusCode, 200, answer.body);
    const declared = Object.keys(contract.application.deploy.output.properties);
    assert.deepEqual(Object.keys(answer.json()).filter((field) => !declared.includes(field)), []);
  });

  it('deploys nothing for a tag, another branch than the default, or a push that deletes a branch', async () => {
    await refused({ ref: 'refs/tags/v1.0.0', repository: { default_branch: 'main' } }, 400, 'ref');
    await refused({ ref: 'refs/heads/feature-x', repository: { default_branch: 'main' } }, 400, 'ref');
    await refused({ ref: 'refs/heads/main', deleted: true, after: '0'.repeat(40), repository: { default_branch: 'main' } }, 400, 'deleted');
  });

  it('deploys a push to the default branch, and a call with no push at all', async () => {
    const pushed = await push(token, { ref: 'refs/heads/main', after: 'a'.repeat(40), repository: { default_branch: 'main' } });
    assert.equal(pushed.statusCode, 200, pushed.body);
    assert.equal(pushed.json().status, 'queued');
    assert.equal((await push(token, {})).statusCode, 200);
  });

  it('quotes at most a hundred characters of the commit message in the title', async () => {
    const answer = await push(token, { ref: 'refs/heads/main', head_commit: { message: `${'x'.repeat(5000)}\nbody` } });
    assert.equal(answer.statusCode, 200, answer.body);
    const { title } = answer.json() as { title: string };
    assert.ok(title.length < 120, `a title of ${title.length} characters`);
    assert.match(title, /^Push: x{99}…$/);
  });

  it('still requires the named branch of an application that names one', async () => {
    await berth.ok('application.saveGitProdiver', { applicationId, customGitUrl: 'https://git.example.com/shop.git', customGitBranch: 'release' });
    await refused({ ref: 'refs/heads/main', repository: { default_branch: 'main' } }, 400, 'ref');
    await refused({}, 400, 'ref');
    assert.equal((await push(token, { ref: 'refs/heads/release' })).statusCode, 200);
  });
});
