// Changing what a compose service runs (its file, command, source) is for accounts that may create
// services: a user who only has access to the service may rename it, but a rewrite of its file
// (privileged, the host's / mounted), or of its env (which the file's ${VARIABLES} read, and the
// compose tool runs with), is refused, and nothing is appended.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startBerth, type TestBerth } from '../support/berth.ts';
import { invitedUser, type TestUser } from '../support/users.ts';

const FILE = 'services:\n  web:\n    image: nginx\n';
const ROOTED = 'services:\n  web:\n    image: nginx\n    privileged: true\n    volumes: ["/:/host"]\n';

describe('changing what a compose service runs', () => {
  let berth: TestBerth;
  let composeId: string;
  let plain: TestUser;
  let creator: TestUser;
  before(async () => {
    berth = await startBerth();
    const { projectId } = await berth.ok('project.create', { name: 'shared' });
    ({ composeId } = await berth.ok('compose.create', { name: 'shop', projectId }));
    await berth.ok('compose.update', { composeId, composeFile: FILE });
    const access = { accesedProjects: [projectId], accesedServices: [composeId] };
    plain = await invitedUser(berth, access);
    creator = await invitedUser(berth, { ...access, canCreateServices: true });
  });
  after(() => berth.stop());

  const update = (user: TestUser, input: Record<string, unknown>) => berth.call('compose.update', { composeId, ...input }, { token: user.token });

  it('is refused, naming the rule, to a user without canCreateServices; nothing is appended', async () => {
    for (const input of [{ composeFile: ROOTED }, { command: 'up -d' }, { composePath: 'other.yml' },
      { sourceType: 'git', customGitUrl: 'https://example.com/x.git' }, { composeType: 'stack' }, { env: 'IMAGE=alpine\nDATA=/' }]) {
      const head = await berth.head();
      const answer = await update(plain, input);
      assert.equal(answer.status, 403, JSON.stringify(answer.body));
      assert.equal(answer.body.code, 'FORBIDDEN');
      assert.match(answer.body.message, /needs the permission canCreateServices/);
      assert.equal(await berth.head(), head);
    }
    assert.equal((await berth.ok('compose.one', { composeId })).composeFile, FILE);
  });

  it('refuses that user a randomizeCompose, which rewrites the file, and lets a user with canCreateServices do it', async () => {
    const head = await berth.head();
    const refused = await berth.call('compose.randomizeCompose', { composeId, prefix: 'zz' }, { token: plain.token });
    assert.equal(refused.status, 403, JSON.stringify(refused.body));
    assert.match(refused.body.message, /^Changing what a compose service runs \(composeFile\) needs the permission canCreateServices$/);
    assert.equal(await berth.head(), head);
    const done = await berth.call('compose.randomizeCompose', { composeId, prefix: 'zz' }, { token: creator.token });
    assert.equal(done.status, 200, JSON.stringify(done.body));
    assert.match(done.body.composeFile, /web-zz:/);
    await berth.ok('compose.update', { composeId, composeFile: FILE });
  });

  it('lets that user change other fields, or send the file back unchanged', async () => {
    const answer = await update(plain, { name: 'shop front', composeFile: FILE });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
  });

  it('lets a user with canCreateServices rewrite the file', async () => {
    const answer = await update(creator, { composeFile: ROOTED });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.equal(answer.body.composeFile, ROOTED);
  });
});
