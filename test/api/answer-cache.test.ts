// The dashboard's answers are kept written while the read models stay the same: a repeated query
// gets the same answer, every change shows at once in the next answer, and callers who may see
// different things never get each other's answer.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startBerth, type TestBerth } from '../support/berth.ts';
import { invitedUser, setPermissions, type TestUser } from '../support/users.ts';

type Project = { projectId: string; name: string; applications: Array<{ applicationId: string; name: string }> };

describe('kept dashboard answers', () => {
  let berth: TestBerth;
  let user: TestUser;
  let shared: Project;
  let hidden: Project;

  const all = async (token = berth.token) => (await berth.call('project.all', {}, { token })).body as Project[];
  const one = async (projectId: string, token = berth.token) => (await berth.call('project.one', { projectId }, { token })).body as Project;

  before(async () => {
    berth = await startBerth();
    shared = await berth.ok('project.create', { name: 'shared' });
    hidden = await berth.ok('project.create', { name: 'hidden' });
    await berth.ok('application.create', { name: 'seen', projectId: shared.projectId });
    await berth.ok('application.create', { name: 'unseen', projectId: shared.projectId });
    const seen = (await one(shared.projectId)).applications.find((app) => app.name === 'seen')!;
    user = await invitedUser(berth, { accesedProjects: [shared.projectId], accesedServices: [seen.applicationId] });
  });
  after(() => berth.stop());

  it('a repeated query answers the same, and the next answer after a change shows the change', async () => {
    const first = await all();
    assert.deepEqual(await all(), first);
    await berth.ok('project.update', { projectId: hidden.projectId, name: 'renamed' });
    assert.equal((await all()).find((project) => project.projectId === hidden.projectId)!.name, 'renamed');
    assert.equal((await one(hidden.projectId)).name, 'renamed');
    const added = await berth.ok('application.create', { name: 'late', projectId: hidden.projectId });
    assert.deepEqual((await one(hidden.projectId)).applications.map((app) => app.applicationId), [added.applicationId]);
  });

  it('an admin\'s kept answer is never given to a user who sees less, nor the user\'s to the admin', async () => {
    for (let round = 0; round < 2; round += 1) {
      assert.equal((await all()).length, 2);
      assert.deepEqual((await all(user.token)).map((project) => project.projectId), [shared.projectId]);
      assert.deepEqual((await one(shared.projectId, user.token)).applications.map((app) => app.name), ['seen']);
      assert.deepEqual((await one(shared.projectId)).applications.map((app) => app.name).sort(), ['seen', 'unseen']);
    }
  });

  it('a user granted more sees it in the next answer', async () => {
    assert.deepEqual((await all(user.token)).length, 1);
    await setPermissions(berth, user, { accesedProjects: [shared.projectId, hidden.projectId] });
    assert.deepEqual((await all(user.token)).map((project) => project.projectId).sort(), [shared.projectId, hidden.projectId].sort());
    assert.deepEqual((await one(shared.projectId, user.token)).applications, []);
  });
});
