// Object-level access: a user sees and touches only the projects and services it was given.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startBerth, type TestBerth } from '../support/berth.ts';
import { ALL_FLAGS, invitedUser, setPermissions, type TestUser } from '../support/users.ts';

describe('object-level access', () => {
  let berth: TestBerth;
  let user: TestUser;
  let p1: string;
  let p2: string;
  let app1: string;
  let hiddenApp: string;
  let app2: string;
  before(async () => {
    berth = await startBerth();
    p1 = (await berth.ok('project.create', { name: 'mine' })).projectId;
    p2 = (await berth.ok('project.create', { name: 'theirs' })).projectId;
    app1 = (await berth.ok('application.create', { name: 'visible', projectId: p1 })).applicationId;
    hiddenApp = (await berth.ok('application.create', { name: 'hidden', projectId: p1 })).applicationId;
    app2 = (await berth.ok('application.create', { name: 'other', projectId: p2 })).applicationId;
    user = await invitedUser(berth, { ...ALL_FLAGS, accesedProjects: [p1], accesedServices: [app1] });
  });
  after(() => berth.stop());

  const as = (operation: string, input: Record<string, unknown>) => berth.call(operation, input, { token: user.token });

  it('lists only P1, with only the services it may see', async () => {
    const projects = (await as('project.all', {})).body;
    assert.deepEqual(projects.map((p: { projectId: string }) => p.projectId), [p1]);
    assert.deepEqual(projects[0].applications.map((a: { applicationId: string }) => a.applicationId), [app1]);
    const one = (await as('project.one', { projectId: p1 })).body;
    assert.deepEqual(one.applications.map((a: { applicationId: string }) => a.applicationId), [app1]);
  });

  it('cannot read, change, deploy or delete anything in P2 by id, and nothing is appended', async () => {
    const head = await berth.head();
    const attempts: Array<[string, Record<string, unknown>]> = [
      ['project.one', { projectId: p2 }], ['project.update', { projectId: p2, name: 'mine now' }], ['project.remove', { projectId: p2 }],
      ['application.one', { applicationId: app2 }], ['application.update', { applicationId: app2, name: 'x' }],
      ['application.deploy', { applicationId: app2 }], ['application.delete', { applicationId: app2 }],
      ['application.one', { applicationId: hiddenApp }],
      ['application.create', { name: 'intruder', projectId: p2 }],
      ['port.create', { publishedPort: 9000, targetPort: 80, applicationId: app2 }],
    ];
    for (const [operation, input] of attempts) {
      const answer = await as(operation, input);
      assert.equal(answer.status, 403, `${operation} answered ${answer.status}`);
      assert.equal(answer.body.code, 'FORBIDDEN');
    }
    assert.equal(await berth.head(), head);
  });

  it('can work on what it was given', async () => {
    assert.equal((await as('application.one', { applicationId: app1 })).status, 200);
    assert.equal((await as('application.saveEnvironment', { applicationId: app1, env: 'A=1' })).status, 200);
  });

  it('is given access to what it creates', async () => {
    const created = await as('project.create', { name: 'new' });
    assert.equal(created.status, 200);
    const app = await as('application.create', { name: 'fresh', projectId: created.body.projectId });
    assert.equal(app.status, 200, JSON.stringify(app.body));
    assert.equal((await as('application.one', { applicationId: app.body.applicationId })).status, 200);
    const log = await berth.berth.infrastructure.eventStore.readAll(0, 100_000);
    const createdBy = log.find((event) => event.type === 'ProjectCreated' && (event.data as { projectId: string }).projectId === created.body.projectId);
    assert.equal(createdBy?.metadata.actorId, user.id, 'the log says who created the project');
    const me = (await as('auth.get', {})).body;
    assert.ok(me.permissions.accesedProjects.includes(created.body.projectId));
    assert.ok(me.permissions.accesedServices.includes(app.body.applicationId));
  });

  it('is given only projects and services that exist, naming the list; ids kept from before are taken back as read', async () => {
    const permissions = (await berth.ok('auth.one', { id: user.id })).permissions;
    const base = { userId: user.id, ...ALL_FLAGS, accesedProjects: permissions.accesedProjects, accesedServices: permissions.accesedServices };
    await berth.refused('admin.assignPermissions', { ...base, accesedProjects: [...base.accesedProjects, 'no-such-project'] }, 404, 'accesedProjects');
    await berth.refused('admin.assignPermissions', { ...base, accesedServices: [...base.accesedServices, 'no-such-service'] }, 404, 'accesedServices');
    await berth.refused('admin.assignPermissions', { ...base, accesedServices: [''] }, 404, 'accesedServices');
    await berth.refused('admin.assignPermissions', { ...base, userId: 'nobody' }, 404, 'userId');
    // A service removed since it was given stays in the list the admin reads and sends back.
    const { applicationId } = await berth.ok('application.create', { name: 'short-lived', projectId: p1 });
    await berth.ok('admin.assignPermissions', { ...base, accesedServices: [...base.accesedServices, applicationId] });
    await berth.ok('application.delete', { applicationId });
    const again = (await berth.ok('auth.one', { id: user.id })).permissions;
    await berth.ok('admin.assignPermissions', { ...base, accesedServices: again.accesedServices });
  });

  it('loses access at once when an admin takes it away', async () => {
    await setPermissions(berth, user, { ...ALL_FLAGS, accesedProjects: [], accesedServices: [] });
    assert.equal((await as('application.one', { applicationId: app1 })).status, 403);
  });
});
