// What a user's call reaches besides the record it names: every project and service in the
// payload must be one the user sees, and removing a project needs the right to remove what it holds.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startBerth, type TestBerth } from '../support/berth.ts';
import { databaseCredentials } from '../support/databases.ts';
import { ALL_FLAGS, invitedUser, type TestUser } from '../support/users.ts';

describe('what a user call reaches', () => {
  let berth: TestBerth;
  let mine: string;
  let theirs: string;
  before(async () => {
    berth = await startBerth();
    mine = (await berth.ok('project.create', { name: 'mine' })).projectId;
    theirs = (await berth.ok('project.create', { name: 'theirs' })).projectId;
  });
  after(() => berth.stop());

  const as = (user: TestUser, operation: string, input: Record<string, unknown>) => berth.call(operation, input, { token: user.token });

  /** `operation` as `user` answers 403 FORBIDDEN and appends nothing. */
  const refused = async (user: TestUser, operation: string, input: Record<string, unknown>) => {
    const head = await berth.head();
    const answer = await as(user, operation, input);
    assert.equal(answer.status, 403, `${operation} answered ${answer.status} ${JSON.stringify(answer.body)}`);
    assert.equal(answer.body.code, 'FORBIDDEN');
    assert.equal(await berth.head(), head, `${operation} appended`);
  };

  it('cannot move its services into a project it has no access to', async () => {
    const applicationId = (await berth.ok('application.create', { name: 'a', projectId: mine })).applicationId;
    const composeId = (await berth.ok('compose.create', { name: 'c', projectId: mine })).composeId;
    const dbepsilonId = (await berth.ok('dbepsilon.create', { name: 'e', appName: 'e', projectId: mine, ...databaseCredentials('dbepsilon') })).dbepsilonId;
    const user = await invitedUser(berth, { ...ALL_FLAGS, accesedProjects: [mine], accesedServices: [applicationId, composeId, dbepsilonId] });
    await refused(user, 'application.update', { applicationId, projectId: theirs });
    await refused(user, 'compose.update', { composeId, projectId: theirs });
    await refused(user, 'dbepsilon.update', { dbepsilonId, projectId: theirs });
    const seen = await berth.ok('project.one', { projectId: theirs });
    assert.equal(seen.applications.length + seen.compose.length + seen.dbepsilon.length, 0);
    assert.equal((await as(user, 'application.update', { applicationId, name: 'renamed' })).status, 200, 'the same update within its project works');
  });

  it('cannot restore a backup of its database into a database it has no access to', async () => {
    const own = (await berth.ok('dbgamma.create', { name: 'own', appName: 'own', projectId: mine, ...databaseCredentials('dbgamma') })).dbgammaId;
    const other = (await berth.ok('dbgamma.create', { name: 'other', appName: 'other', projectId: mine, ...databaseCredentials('dbgamma') })).dbgammaId;
    const destinationId = (await berth.ok('destination.create', {
      name: 'd', accessKey: 'AK', bucket: 'b', region: 'us-east-1', endpoint: 'https://s3.example.com', secretAccessKey: 'SK-123456',
    })).destinationId;
    const backupId = (await berth.ok('backup.create', {
      schedule: '0 3 * * *', prefix: 'nightly', destinationId, database: 'app', databaseType: 'dbgamma', dbgammaId: own, enabled: false,
    })).backupId;
    const user = await invitedUser(berth, { ...ALL_FLAGS, accesedProjects: [mine], accesedServices: [own] });
    await refused(user, 'backup.restore', { backupId, key: 'nightly/x.sql.gz', dbgammaId: other });
  });

  it('cannot remove a project holding services it may not delete, and nothing of it goes', async () => {
    const user = await invitedUser(berth, { canCreateProjects: true, canDeleteProjects: true, canCreateServices: true });
    const projectId = (await as(user, 'project.create', { name: 'shared' })).body.projectId;
    const ownApp = (await as(user, 'application.create', { name: 'own', projectId })).body.applicationId;
    await refused(user, 'project.remove', { projectId }); // its own service, but no canDeleteServices
    const admins = (await berth.ok('application.create', { name: 'admins', projectId })).applicationId;
    const deleter = await invitedUser(berth, { ...ALL_FLAGS, accesedProjects: [projectId], accesedServices: [ownApp] });
    await refused(deleter, 'project.remove', { projectId }); // a service it does not see
    assert.equal((await berth.call('application.one', { applicationId: admins })).status, 200);
    assert.equal((await berth.call('application.one', { applicationId: ownApp })).status, 200);
    const full = await invitedUser(berth, { ...ALL_FLAGS, accesedProjects: [projectId], accesedServices: [ownApp, admins] });
    assert.equal((await as(full, 'project.remove', { projectId })).status, 200, 'with the right to delete all it holds');
    assert.equal((await berth.call('application.one', { applicationId: admins })).status, 404);
  });

  it('hears of a port, backup or deployment missing from the read models as not found', async () => {
    const user = await invitedUser(berth, { ...ALL_FLAGS, accesedProjects: [mine] });
    for (const [operation, field] of [['port.one', 'portId'], ['backup.one', 'backupId'], ['deployment.one', 'deploymentId']] as const) {
      const answer = await as(user, operation, { [field]: 'no-such-record-0000000' });
      assert.equal(answer.status, 404, `${operation} answered ${answer.status}`);
      assert.equal(answer.body.issues?.[0]?.path, field);
    }
  });
});
