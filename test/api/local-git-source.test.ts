// A git source that is a path on the Berth host (or a file: URL) clones whatever repository Berth's
// own user reads there: another tenant's checkout under the data folder included. Only an admin
// may save one; anyone else is refused FORBIDDEN, and nothing is appended.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startBerth, type TestBerth } from '../support/berth.ts';
import { invitedUser, type TestUser } from '../support/users.ts';

const LOCAL = ['/srv/berth/sources/other/source', './repo', 'repo', '../x:y', 'file:///srv/repo', 'FILE:///srv/repo', 'File://host/srv/repo', 'file:/srv/repo', 'file::/srv/repo'];

describe('a git source on the Berth host', () => {
  let berth: TestBerth;
  let applicationId: string;
  let composeId: string;
  let user: TestUser;
  before(async () => {
    berth = await startBerth();
    const { projectId } = await berth.ok('project.create', { name: 'tenants' });
    ({ applicationId } = await berth.ok('application.create', { name: 'web', projectId }));
    ({ composeId } = await berth.ok('compose.create', { name: 'stack', projectId }));
    // canCreateServices: the compose rule (changing what it runs) would refuse a user without it anyway.
    user = await invitedUser(berth, { accesedProjects: [projectId], accesedServices: [applicationId, composeId], canCreateServices: true });
  });
  after(() => berth.stop());

  const as = (token: string, operation: string, input: Record<string, unknown>) => berth.call(operation, input, { token });

  it('is refused to a user, FORBIDDEN, whichever operation saves it; nothing is appended', async () => {
    for (const url of LOCAL) {
      for (const [operation, input] of [
        ['application.saveGitProdiver', { applicationId, customGitUrl: url, customGitBranch: 'main', customGitBuildPath: '/' }],
        ['application.update', { applicationId, sourceType: 'git', customGitUrl: url }],
        ['compose.update', { composeId, sourceType: 'git', customGitUrl: url }],
      ] as const) {
        const head = await berth.head();
        const answer = await as(user.token, operation, input);
        assert.equal(answer.status, 403, `${operation} ${url}: ${JSON.stringify(answer.body)}`);
        assert.equal(answer.body.code, 'FORBIDDEN');
        assert.match(answer.body.message, /only by an admin/);
        assert.equal(await berth.head(), head, `${operation} ${url} appended`);
      }
    }
  });

  it('lets the user save a remote URL', async () => {
    for (const url of ['https://example.com/x.git', 'git@example.com:x.git', 'example.com:x.git', 'ssh://git@example.com/x.git', 'git://example.com/x.git']) {
      const answer = await as(user.token, 'application.saveGitProdiver', { applicationId, customGitUrl: url });
      assert.equal(answer.status, 200, `${url}: ${JSON.stringify(answer.body)}`);
    }
  });

  it('lets an admin save one, and the user send it back unchanged', async () => {
    await berth.ok('application.saveGitProdiver', { applicationId, customGitUrl: '/srv/repo' });
    await berth.ok('compose.update', { composeId, sourceType: 'git', customGitUrl: 'file:///srv/repo' });
    const app = await as(user.token, 'application.update', { applicationId, name: 'renamed', customGitUrl: '/srv/repo' });
    assert.equal(app.status, 200, JSON.stringify(app.body));
    const compose = await as(user.token, 'compose.update', { composeId, name: 'renamed', customGitUrl: 'file:///srv/repo' });
    assert.equal(compose.status, 200, JSON.stringify(compose.body));
  });
});
