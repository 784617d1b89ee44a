// Issue tests 4 and 5 on the real engine: the roles as separate processes on one data folder,
// speaking through NATS JetStream (the API and projections here, the relay and the reactors each
// a `berth <role>` process). nats-server restarts while deployments run: none is lost, none runs
// twice. Then the reactors process is killed with SIGKILL in the middle of a real build: after its
// restart the deployment ends interrupted and the service status is not `running`.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { TEST_IMAGE, eventually, httpBody, removeDeployed } from '../support/engine.ts';
import { GOOD_CONTAINERFILE, gitRepo } from '../support/git-repo.ts';
import { freePort, listeningBerth, type HttpClient, type ListeningBerth } from '../support/http.ts';
import { startNats, type NatsServer } from '../support/nats.ts';
import { startRole, type RoleProcess } from '../support/role-process.ts';
import { NatsBus } from '@berth/shared/adapters/bus/nats-bus';

describe('roles in separate processes over NATS, on the real engine', () => {
  let nats: NatsServer;
  let api: ListeningBerth;
  let client: HttpClient;
  let projectId: string;
  let env: Record<string, string>;
  const roles: RoleProcess[] = [];
  const services: string[] = [];
  const repo = gitRepo();
  before(async () => {
    repo.commit({ 'Containerfile': GOOD_CONTAINERFILE, 'index.html': 'from git\n' });
    nats = await startNats();
    api = await listeningBerth({ config: { natsUrl: nats.url, actionWaitMs: 30_000 } });
    env = {
      BERTH_DATA_DIR: api.dataDir, BERTH_NATS_URL: nats.url, BERTH_LOG_LEVEL: 'silent', BERTH_SQLITE_SYNCHRONOUS: 'NORMAL',
      BERTH_TASK_START_TIMEOUT_MS: '20000',
    };
    roles.push(startRole('relay', env), startRole('reactors', env));
    // The reactors process is up once its last durable consumer exists (a restart mid-start-up is another test's matter).
    const bus = await NatsBus.connect(nats.url);
    try {
      await eventually('the reactors to start', async () => (await bus.pending()).has('notifications'), 60_000);
    } finally {
      await bus.close();
    }
    client = api.client;
    await client.raw('/api/auth.createAdmin', {
      method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${api.setupToken()}` },
      body: JSON.stringify({ email: 'ops@berth.test', password: 'separate processes' }),
    });
    client.token = (await client.ok('auth.login', { email: 'ops@berth.test', password: 'separate processes' })).token;
    ({ projectId } = await client.ok('project.create', { name: 'apart' }));
  });
  after(async () => {
    for (const role of roles) role.child.kill('SIGKILL');
    await removeDeployed(services);
    await api.stop();
    await nats.stop();
    repo.remove();
  });

  const app = async (name: string, source: Record<string, unknown>, operation: string, port?: number) => {
    const created = await client.ok('application.create', { name, projectId });
    services.push(created.appName);
    await client.ok(operation, { applicationId: created.applicationId, ...source });
    if (port) await client.ok('port.create', { applicationId: created.applicationId, publishedPort: port, targetPort: 8080 });
    return created.applicationId as string;
  };
  const deploy = async (applicationId: string) => (await client.ok('application.deploy', { applicationId })).deploymentId as string;
  const ended = (deploymentId: string) => eventually(`deployment ${deploymentId} to end`, async () => {
    const found = await client.ok('deployment.one', { deploymentId });
    return ['done', 'error', 'cancelled'].includes(found.status) ? found : null;
  }, 90_000);

  it('runs every deployment exactly once across a restart of nats-server', async () => {
    const [imagePort, gitPort] = [await freePort(), await freePort()];
    const image = await app('image', { containerImage: TEST_IMAGE }, 'application.saveContainerProvider', imagePort);
    const git = await app('git', { customGitUrl: repo.dir, customGitBranch: 'main' }, 'application.saveGitProdiver', gitPort);
    const ids = [await deploy(image), await deploy(git)];
    await eventually('a deployment to run', async () => (await client.ok('deployment.one', { deploymentId: ids[0] })).status !== 'queued', 60_000);
    // Mid-run; the next ones are queued while the bus comes back: the relay publishes them when it can.
    await nats.restart();
    ids.push(await deploy(image), await deploy(git));
    const outcomes = await Promise.all(ids.map(ended));
    assert.deepEqual(outcomes.map((d) => d.status), ['done', 'done', 'done', 'done'], JSON.stringify(outcomes));
    assert.equal(await httpBody(gitPort), 'from git\n');
    assert.ok(await httpBody(imagePort) !== null, 'the image service does not answer');
    const events = await api.berth.infrastructure.eventStore.readAll(0, 100_000);
    for (const id of ids) {
      const starts = events.filter((event) => event.type === 'DeploymentStarted' && (event.data as { deploymentId: string }).deploymentId === id);
      assert.equal(starts.length, 1, `deployment ${id} started ${starts.length} times`);
    }
    // Start/stop answered through the bus after the restart too.
    assert.equal((await client.ok('application.stop', { applicationId: image })).applicationStatus, 'idle');
  });

  it('ends a deployment whose reactors process was SIGKILLed mid-build as interrupted after the restart', async () => {
    const slow = await app('slow', { customGitUrl: repo.dir, customGitBranch: 'main' }, 'application.saveGitProdiver');
    const nonce = randomBytes(6).toString('hex');
    await client.ok('application.update', {
      applicationId: slow, containerfile: `FROM ${TEST_IMAGE}\nRUN for i in $(seq 1 60); do echo "tick $i ${nonce}"; sleep 1; done\n`,
    });
    const stuck = await deploy(slow);
    await eventually('the build to run', async () => /tick 1 /.test((await client.ok('deployment.logs', { deploymentId: stuck })).log), 60_000);
    const reactors = roles.find((role) => role.child.spawnargs.includes('reactors'))!;
    reactors.child.kill('SIGKILL');
    await reactors.exited;
    roles.push(startRole('reactors', env));
    const interrupted = await ended(stuck);
    assert.equal(interrupted.status, 'error');
    assert.equal(interrupted.reason, 'interrupted');
    const status = await eventually('the service status to follow', async () => {
      const found = (await client.ok('application.one', { applicationId: slow })).applicationStatus as string;
      return found === 'running' ? null : found;
    }, 10_000);
    assert.equal(status, 'error');
  });
});
