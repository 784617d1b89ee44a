// The engine out of reach in the middle of a rollout: the deployment fails, and the service it was
// updating could not be put back then. Once the engine answers again the service runs the previous
// version, and only then does the deployment end `error` with its reason; a deployment asked
// meanwhile runs after that, and wins. After a crash and a restart while the engine is away, the
// same: the interrupted deployment's spec is put back once the engine answers.
import assert from 'node:assert/strict';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import { DEPLOYMENT_LABEL } from '@berth/shared/domain/deployment/record';
import { startBerthWithReactors, type TestBerth } from '../support/berth.ts';
import { ended } from '../support/deployments.ts';
import { TEST_IMAGE, engine, eventually, httpBody, removeDeployed } from '../support/engine.ts';
import { freePort, type HttpClient } from '../support/http.ts';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.ts';
import { crashingBerth, deploymentWhen, holdPort } from './crashing-berth.ts';

/** How long the engine stays away: the records must not say the deployment ended meanwhile. */
const OUTAGE_MS = 4000;

/** The engine's socket on a loopback TCP port, for the cuttable proxy to stand in front of. */
async function engineOnTcp(): Promise<{ port: number; server: Server }> {
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect('/var/run/docker.sock');
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => { client.destroy(); upstream.destroy(); });
    }
    client.pipe(upstream).pipe(client);
  });
  server.on('close', () => { for (const socket of sockets) socket.destroy(); });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as { port: number }).port, server };
}

const labelOf = async (appName: string) => (await engine.inspectService(appName))?.spec.Labels?.[DEPLOYMENT_LABEL] ?? null;
const publishedOf = async (appName: string) =>
  ((await engine.inspectService(appName))?.spec.EndpointSpec?.Ports ?? []).map((binding) => binding.PublishedPort).join();

/** Waits until the engine holds the spec the deployment wrote: its rollout watches the tasks now. */
const specWritten = (appName: string, deploymentId: string) =>
  eventually('the deployment to write its service spec', async () => (await labelOf(appName)) === deploymentId, 60_000);

/** The service back on the spec of `deploymentId`, publishing `port`, and serving there. */
async function backOn(appName: string, deploymentId: string, port: number): Promise<void> {
  await eventually('the service to be back on the previous spec', async () => (await labelOf(appName)) === deploymentId, 60_000)
    .catch(async (error: Error) => { throw new Error(`${error.message}: it runs ${await labelOf(appName)}, publishing ${await publishedOf(appName)}`); });
  assert.equal(await publishedOf(appName), String(port));
  assert.equal(await eventually('the previous version to serve again', () => httpBody(port), 30_000), 'berth-test httpd\n');
}

/** An application on the test image publishing `port`, deployed once; answers its first deployment's id too. */
async function deployedApplication(api: Pick<HttpClient, 'ok'>, name: string, port: number) {
  const { projectId } = await api.ok('project.create', { name: `outage ${name}` });
  const { applicationId, appName } = await api.ok('application.create', { name, projectId });
  await api.ok('application.saveContainerProvider', { applicationId, containerImage: TEST_IMAGE });
  const { portId } = await api.ok('port.create', { applicationId, publishedPort: port, targetPort: 8080 });
  const { deploymentId } = await api.ok('application.deploy', { applicationId });
  return { applicationId: applicationId as string, appName: appName as string, portId: portId as string, firstId: deploymentId as string };
}

describe('a rollout the engine drops out of', () => {
  const apps: string[] = [];
  const cleanups: Array<() => Promise<unknown>> = [];
  let proxy: TcpProxy;
  before(async () => {
    const forwarder = await engineOnTcp();
    cleanups.push(() => new Promise((resolve) => forwarder.server.close(resolve)));
    proxy = await startTcpProxy({ host: '127.0.0.1', port: forwarder.port });
    cleanups.push(() => proxy.stop());
  });
  // A test that failed during its outage leaves the proxy cut: the next one starts with the engine there.
  beforeEach(() => proxy.restore());

  /**
   * A Berth whose engine is behind the proxy, an application deployed once, then a next version
   * that publishes a port another process holds (its task never starts, the rollout watches), and
   * the engine cut once that version's spec is written.
   */
  async function failingRolloutCut(name: string) {
    const held = await holdPort();
    cleanups.push(async () => held.server.close());
    const berth: TestBerth = await startBerthWithReactors({
      env: { BERTH_ENGINE_SOCKET: `http://${proxy.address}` }, config: { taskStartTimeoutMs: 120_000, taskSteadyMs: 1000 },
    });
    cleanups.push(() => berth.stop());
    const { applicationId, appName, portId, firstId } = await deployedApplication(berth, name, await freePort());
    apps.push(appName);
    const first = await ended(berth, firstId);
    assert.equal(first.status, 'done', first.reason);
    await berth.ok('port.update', { portId, publishedPort: held.port, targetPort: 8080 });
    const { deploymentId } = await berth.ok('application.deploy', { applicationId });
    await specWritten(appName, deploymentId);
    proxy.cut();
    return { berth, applicationId, appName, portId, firstId, deploymentId: deploymentId as string };
  }
  after(async () => {
    proxy.restore();
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
    await removeDeployed(apps);
  });

  it('puts the service back once the engine answers, then fails the deployment; one asked meanwhile runs after it', async () => {
    const { berth, applicationId, appName, portId, deploymentId } = await failingRolloutCut('rao-live');
    // Asked while the engine is away: it must run after the failed one is put back, not under it.
    const laterPort = await freePort();
    await berth.ok('port.update', { portId, publishedPort: laterPort, targetPort: 8080 });
    const { deploymentId: laterId } = await berth.ok('application.deploy', { applicationId });
    await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS));
    const during = await berth.ok('deployment.one', { deploymentId });
    assert.equal(during.status, 'running', 'the deployment ended while the engine still ran its spec');
    proxy.restore();

    const failed = await ended(berth, deploymentId);
    assert.equal(failed.status, 'error');
    assert.ok(failed.reason, 'the failure has a reason');
    const { log } = await berth.ok('deployment.logs', { deploymentId });
    assert.match(log, new RegExp(`Restored the previous version of ${appName}`));
    assert.match(log, /Failed: /);
    const later = await ended(berth, laterId);
    assert.equal(later.status, 'done', later.reason);
    assert.ok(later.startedAt >= failed.finishedAt, 'the later deployment started once the failed one had ended');
    assert.equal(await labelOf(appName), laterId, 'the later deployment runs');
    assert.equal(await publishedOf(appName), String(laterPort));
    assert.equal(await eventually('the later version to serve', () => httpBody(laterPort), 30_000), 'berth-test httpd\n');
  });

  it('does not undo a stop asked while the service waited to be put back: the stop runs after it', async () => {
    const { berth, applicationId, appName, firstId, deploymentId } = await failingRolloutCut('rao-stop');
    // Its answer waits for the engine: the stop is asked, and done once the service is back.
    const stopping = berth.call('application.stop', { applicationId });
    await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS));
    proxy.restore();
    await stopping;

    // The stop cancelled the deployment: it ends so once the service is back, and the stop then scales it to 0.
    assert.equal((await ended(berth, deploymentId)).status, 'cancelled');
    const replicasOf = async () => ((await engine.inspectService(appName))?.spec.Mode as { Replicated?: { Replicas?: number } } | undefined)?.Replicated?.Replicas;
    await eventually('the stop to scale the service to 0', async () => (await replicasOf()) === 0, 60_000);
    assert.equal(await labelOf(appName), firstId, 'the stopped service keeps the previous spec');
    await new Promise((resolve) => setTimeout(resolve, 2000));
    assert.equal(await replicasOf(), 0, 'nothing brought the service up again');
    assert.equal((await berth.ok('application.one', { applicationId })).applicationStatus, 'idle');
  });

  it('after a crash and a restart while the engine is away, puts the interrupted deployment\'s service back once it answers', async () => {
    const held = await holdPort();
    cleanups.push(async () => held.server.close());
    const berth = await crashingBerth({ BERTH_ENGINE_SOCKET: `http://${proxy.address}`, BERTH_TASK_START_TIMEOUT_MS: '180000', BERTH_TASK_STEADY_MS: '1000' });
    cleanups.push(() => berth.close());
    await berth.start();
    const port = await freePort();
    const { applicationId, appName, portId, firstId } = await deployedApplication(berth.api, 'rao-crash', port);
    apps.push(appName);
    const first = await deploymentWhen(berth.api, firstId, (d) => d.status !== 'queued' && d.status !== 'running', 'the first deployment to end', 90_000);
    assert.equal(first.status, 'done', first.reason);

    await berth.api.ok('port.update', { portId, publishedPort: held.port, targetPort: 8080 });
    const { deploymentId } = await berth.api.ok('application.deploy', { applicationId });
    await specWritten(appName, deploymentId);
    await berth.kill();
    proxy.cut();
    await berth.start();
    await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS));
    const during = await berth.api.ok('deployment.one', { deploymentId });
    assert.equal(during.status, 'running', 'the deployment ended while the engine still ran its spec');
    assert.equal(await labelOf(appName), deploymentId);
    proxy.restore();

    const interrupted = await deploymentWhen(berth.api, deploymentId, (d) => d.status !== 'running', 'the deployment to end');
    assert.equal(interrupted.status, 'error');
    assert.equal(interrupted.reason, 'interrupted');
    await backOn(appName, firstId, port);
    assert.equal((await berth.api.ok('application.one', { applicationId })).applicationStatus, 'error');
    const { log } = await berth.api.ok('deployment.logs', { deploymentId });
    assert.match(log, new RegExp(`Restored the previous version of ${appName}`));
    assert.match(log, /Failed: interrupted/);
  });
});
