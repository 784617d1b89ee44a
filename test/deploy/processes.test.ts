// The roles as separate processes on one data folder, speaking through NATS JetStream: the API and
// projections here, the relay through the real launcher, the reactors in a process of their own
// that is killed with SIGKILL mid-deployment and started again.
// (Engine work replaced by the double in the reactors process: this proves the roles and the bus.)
import assert from 'node:assert/strict';
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { listeningBerth, type ListeningBerth } from '../support/http.ts';
import { startNats, type NatsServer } from '../support/nats.ts';

const LAUNCH = fileURLToPath(new URL('../../shared/runtime/roles-cli.ts', import.meta.url));
const REACTORS = fileURLToPath(new URL('../support/reactors-process.ts', import.meta.url));

describe('roles in separate processes over NATS', () => {
  let nats: NatsServer;
  let api: ListeningBerth;
  const children: ChildProcess[] = [];
  let env: NodeJS.ProcessEnv;
  before(async () => {
    nats = await startNats();
    api = await listeningBerth({ config: { natsUrl: nats.url, actionWaitMs: 10_000 } });
    env = { ...process.env, BERTH_DATA_DIR: api.dataDir, BERTH_NATS_URL: nats.url, BERTH_LOG_LEVEL: 'silent', BERTH_SQLITE_SYNCHRONOUS: 'NORMAL' };
    children.push(spawn(process.execPath, ['--import', 'tsx', LAUNCH], { env: { ...env, BERTH_ROLES: 'relay' }, stdio: 'ignore' }));
  });
  after(async () => {
    for (const child of children) child.kill('SIGKILL');
    await api.stop();
    await nats.stop();
  });

  const startReactors = async () => {
    const child = fork(REACTORS, { env, execArgv: ['--import', 'tsx'], stdio: 'ignore' });
    children.push(child);
    await new Promise<void>((resolve, reject) => {
      child.once('message', () => resolve());
      child.once('exit', (code) => reject(new Error(`reactors exited with ${code}`)));
    });
    return child;
  };

  it('deploys through the relay and the reactors processes; a SIGKILLed deployment ends interrupted after the restart', async () => {
    const client = api.client;
    await client.raw('/api/auth.createAdmin', {
      method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${api.setupToken()}` },
      body: JSON.stringify({ email: 'ops@berth.test', password: 'separate processes' }),
    });
    client.token = (await client.ok('auth.login', { email: 'ops@berth.test', password: 'separate processes' })).token;
    const reactors = await startReactors();
    const { projectId } = await client.ok('project.create', { name: 'apart' });
    const app = async (name: string) => {
      const { applicationId } = await client.ok('application.create', { name, projectId });
      await client.ok('application.saveContainerProvider', { applicationId, containerImage: `${name}:1` });
      return applicationId as string;
    };
    const waitFor = async (deploymentId: string, status: string) => {
      const deadline = Date.now() + 20_000;
      for (;;) {
        const deployment = await client.ok('deployment.one', { deploymentId });
        if (deployment.status === status) return deployment;
        assert.ok(Date.now() < deadline, `deployment is ${deployment.status}, not ${status}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    const quick = await app('quick');
    await waitFor((await client.ok('application.deploy', { applicationId: quick })).deploymentId, 'done');
    assert.equal((await client.ok('application.stop', { applicationId: quick })).applicationStatus, 'idle');

    const hanging = await app('hang');
    const stuck = (await client.ok('application.deploy', { applicationId: hanging })).deploymentId;
    await waitFor(stuck, 'running');
    reactors.kill('SIGKILL');
    await new Promise((resolve) => reactors.once('exit', resolve));
    await startReactors();
    const interrupted = await waitFor(stuck, 'error');
    assert.equal(interrupted.reason, 'interrupted');
    const deadline = Date.now() + 10_000;
    let status = '';
    while ((status = (await client.ok('application.one', { applicationId: hanging })).applicationStatus) !== 'error' && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.equal(status, 'error');
  });
});
