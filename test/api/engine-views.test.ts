// Operations answered straight from the engine: cluster nodes and join commands, containers,
// monitoring, and a real registry login.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startBerth, type TestBerth } from '../support/berth.ts';
import { TEST_IMAGE, removeDeployed } from '../support/engine.ts';
import { deploy, deployer, testApplication } from '../support/deploy-work.ts';
import { startRegistry, type TestRegistry } from '../support/registry.ts';
import { invitedUser, setPermissions } from '../support/users.ts';

describe('engine views', () => {
  let berth: TestBerth;
  let registry: TestRegistry;
  const d = deployer();
  const SECRET = 'a database password of the app';
  let app: ReturnType<typeof testApplication>;
  let projectId: string;
  before(async () => {
    [berth, registry] = await Promise.all([startBerth(), startRegistry()]);
    // The service the engine runs is the one Berth made for an application it knows (its mark).
    ({ projectId } = await berth.ok('project.create', { name: 'views' }));
    const { applicationId, appName } = await berth.ok('application.create', { name: 'app', projectId });
    // Its command (the container's entrypoint and arguments) and health check carry secrets too.
    app = testApplication({
      applicationId, appName, sourceType: 'container', containerImage: TEST_IMAGE, env: `DATABASE_PASSWORD=${SECRET}`,
      command: `API_TOKEN='${SECRET}'; trap "exit 0" TERM; httpd -f -p 8080 -h /www & wait`,
      healthCheckOrch: { Test: ['CMD-SHELL', `true # ${SECRET}`], Interval: 1_000_000_000 },
    });
    assert.equal((await deploy(d, app)).error, null);
  });
  after(async () => {
    await removeDeployed([app.appName]);
    await Promise.all([berth.stop(), registry.stop()]);
  });

  it('lists the swarm\'s nodes and gives join commands with the real tokens and the manager\'s address', async () => {
    const nodes = await berth.ok('cluster.getNodes');
    const leader = nodes.find((node: { leader: boolean }) => node.leader);
    assert.equal(leader.role, 'manager');
    const worker = await berth.ok('cluster.addWorker');
    const manager = await berth.ok('cluster.addManager');
    assert.match(worker.command, /^docker swarm join --token SWMTKN-\S+ \S+:\d+$/);
    assert.notEqual(worker.token, manager.token);
    assert.equal(worker.command, `docker swarm join --token ${worker.token} ${worker.managerAddress}`);
    await berth.refused('cluster.removeWorker', { nodeId: 'no-such-node' }, 404, 'nodeId');
    await berth.refused('cluster.removeWorker', { nodeId: leader.id }, 409, 'nodeId');
  });

  it('finds a service\'s containers by label and name, shows one\'s configuration, and measures it', async () => {
    const byLabel = await berth.ok('container.getContainersByAppLabel', { appName: app.appName });
    assert.equal(byLabel.length, 1);
    assert.equal(byLabel[0].state, 'running');
    const byName = await berth.ok('container.getContainersByAppNameMatch', { appName: app.appName });
    assert.deepEqual(byName.map((c: { containerId: string }) => c.containerId), [byLabel[0].containerId]);
    assert.ok((await berth.ok('container.getContainers')).some((c: { containerId: string }) => c.containerId === byLabel[0].containerId));
    const config = await berth.ok('container.getConfig', { containerId: byLabel[0].containerId });
    assert.equal(config.Id, byLabel[0].containerId);
    await berth.refused('container.getConfig', { containerId: 'no-such-container' }, 404, 'containerId');
    // A path the engine would clean and redirect once ended the process (see the adapter's test).
    await berth.refused('container.getConfig', { containerId: '../../../../etc/passwd' }, 404, 'containerId');
    await berth.refused('container.getConfig', { containerId: 'a/../../containers/json?all=1#' }, 404, 'containerId');

    const usage = await berth.ok('application.readAppMonitoring', { appName: app.appName });
    assert.equal(usage.containers.length, 1);
    assert.ok(usage.memory.usedBytes > 0, JSON.stringify(usage));
    assert.equal(typeof usage.cpuPercent, 'number');
    assert.equal(typeof usage.network.rxBytes, 'number');
    assert.equal(typeof usage.blockIO.readBytes, 'number');
    assert.equal((await berth.refused('application.readAppMonitoring', { appName: 'no-such-service' }, 404, 'appName')).message,
      'appName names no service no-such-service');
    assert.equal((await berth.refused('application.readAppMonitoring', { appName: '' }, 404, 'appName')).message,
      'appName names no service: it is empty');
    // A service of Berth's that runs nothing now measures zero.
    const { projectId } = await berth.ok('project.create', { name: 'idle' });
    const idle = await berth.ok('application.create', { name: 'idle', projectId });
    assert.deepEqual((await berth.ok('application.readAppMonitoring', { appName: idle.appName })).containers, []);
  });

  it('shows a user only its own services\' containers\' configuration: another\'s is unknown to it, as in its list', async () => {
    const { applicationId } = app;
    const [{ containerId }] = await berth.ok('container.getContainersByAppLabel', { appName: app.appName });
    const admins = await berth.ok('container.getConfig', { containerId });
    assert.ok(admins.Config.Env.includes(`DATABASE_PASSWORD=${SECRET}`), 'the admin sees the values');
    assert.ok(JSON.stringify(admins).includes(`API_TOKEN='${SECRET}'`) && JSON.stringify(admins.Config.Healthcheck).includes(SECRET));

    const user = await invitedUser(berth, { canAccessToContainer: true, accesedProjects: [projectId] });
    const configAsUser = (id: string) => berth.call('container.getConfig', { containerId: id }, { token: user.token });
    const refused = await configAsUser(containerId);
    const unknown = await configAsUser('f'.repeat(64));
    assert.deepEqual([refused.status, unknown.status], [404, 404], JSON.stringify(refused.body));
    assert.deepEqual(refused.body, unknown.body, 'another\'s container reads as one that does not exist');

    await setPermissions(berth, user, { canAccessToContainer: true, accesedProjects: [projectId], accesedServices: [applicationId] });
    const own = (await configAsUser(containerId)).body;
    assert.ok(own.Config.Env.includes(`DATABASE_PASSWORD=${SECRET}`), 'the user whose service it is sees its configuration');
  });

  it('logs in to a real registry, and answers its refusal as a 400', async () => {
    const input = { registryName: 'r', username: registry.username, password: registry.password, registryUrl: registry.url, registryType: 'selfHosted', imagePrefix: null };
    assert.equal(await berth.ok('registry.testRegistry', input), true);
    const refused = await berth.refused('registry.testRegistry', { ...input, password: 'wrong password' }, 400, 'password');
    assert.match(refused.message, /unauthorized|401/i);
    assert.ok(!JSON.stringify(refused).includes('wrong password'));
  });
});
