// The container views on the real engine, called by a user with canAccessToContainer who reaches one
// service of two: it sees that service's containers and measures, never the other's, nor containers
// Berth did not make; a name it cannot reach answers 403, as an id it cannot reach does. An admin sees all.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { startBerth, type TestBerth } from '../support/berth.ts';
import { TEST_IMAGE, removeDeployed, uniqueName } from '../support/engine.ts';
import { deploy, deployer, testApplication } from '../support/deploy-work.ts';
import { invitedUser, type TestUser } from '../support/users.ts';

const PREFIX = 'berth-test-access';
const namesOf = (containers: Array<{ name: string }>) => containers.map((found) => found.name);

describe('container views of a user who reaches one service of two', () => {
  let berth: TestBerth;
  let user: TestUser;
  const d = deployer();
  const apps: Record<'mine' | 'other', { applicationId: string; appName: string }> = {} as never;
  // A container no service of Berth's made.
  const bare = uniqueName(`${PREFIX}-bare`);

  const as = (operation: string, input: Record<string, unknown> = {}) => berth.call(operation, input, { token: user.token });
  /** `operation` as the user answers 403 FORBIDDEN, as for a service id it cannot see, and appends nothing. */
  const refused = async (operation: string, input: Record<string, unknown>) => {
    const head = await berth.head();
    const answer = await as(operation, input);
    assert.equal(answer.status, 403, `${operation} ${JSON.stringify(input)}: ${answer.status} ${JSON.stringify(answer.body)}`);
    assert.equal(answer.body.code, 'FORBIDDEN');
    assert.equal(await berth.head(), head);
  };

  before(async () => {
    berth = await startBerth();
    const { projectId } = await berth.ok('project.create', { name: 'shared' });
    for (const key of ['mine', 'other'] as const) {
      const { applicationId, appName } = await berth.ok('application.create', { name: `${PREFIX}-${key}`, projectId });
      apps[key] = { applicationId, appName };
      const app = testApplication({ applicationId, appName, sourceType: 'container', containerImage: TEST_IMAGE });
      assert.equal((await deploy(d, app)).error, null);
    }
    execFileSync('docker', ['create', '--name', bare, '--label', 'berth.note=not made by Berth', TEST_IMAGE], { stdio: 'ignore' });
    user = await invitedUser(berth, { canAccessToContainer: true, accesedProjects: [projectId], accesedServices: [apps.mine.applicationId] });
  });
  after(async () => {
    execFileSync('docker', ['rm', '-f', bare], { stdio: 'ignore' });
    await removeDeployed(Object.values(apps).map(({ appName }) => appName));
    await berth.stop();
  });

  it('getContainers lists a user only the containers of the services it reaches; an admin every container', async () => {
    const seen = await as('container.getContainers');
    assert.equal(seen.status, 200, JSON.stringify(seen.body));
    const names = namesOf(seen.body);
    assert.equal(names.filter((name) => name.startsWith(`${apps.mine.appName}.`)).length, 1, names.join(' '));
    assert.deepEqual(names.filter((name) => !name.startsWith(`${apps.mine.appName}.`)), [], 'nothing but its own service\'s');
    const all = namesOf(await berth.ok('container.getContainers'));
    for (const expected of [apps.mine.appName, apps.other.appName]) assert.ok(all.some((name) => name.startsWith(`${expected}.`)), expected);
    assert.ok(all.includes(bare));
  });

  for (const operation of ['container.getContainersByAppLabel', 'container.getContainersByAppNameMatch']) {
    it(`${operation} answers a user its own service's containers, 403 for another's or a name no service has; an admin any`, async () => {
      const own = await as(operation, { appName: apps.mine.appName });
      assert.equal(own.status, 200, JSON.stringify(own.body));
      assert.equal(own.body.length, 1);
      await refused(operation, { appName: apps.other.appName });
      await refused(operation, { appName: `${PREFIX}-no-such-service` });
      assert.equal((await berth.ok(operation, { appName: apps.other.appName })).length, 1);
    });
  }

  it('readAppMonitoring measures a user\'s own service, 403 for another\'s or a name no service has; an admin any', async () => {
    const own = await as('application.readAppMonitoring', { appName: apps.mine.appName });
    assert.equal(own.status, 200, JSON.stringify(own.body));
    assert.equal(own.body.containers.length, 1);
    await refused('application.readAppMonitoring', { appName: apps.other.appName });
    await refused('application.readAppMonitoring', { appName: `${PREFIX}-no-such-service` });
    await refused('application.readAppMonitoring', { appName: '' });
    assert.equal((await berth.ok('application.readAppMonitoring', { appName: apps.other.appName })).containers.length, 1);
  });
});
