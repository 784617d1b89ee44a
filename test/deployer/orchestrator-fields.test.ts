// Issue test 6 on the work functions: every orchestrator field of an application, and its
// resources, command and ports, appear in the service spec the engine answers.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, test } from 'node:test';
import { freePort } from '../support/http.ts';
import { TEST_IMAGE, engine, uniqueName, removeDeployed } from '../support/engine.ts';
import { deploy, deployer, portOf, testApplication } from '../support/deploy-work.ts';
import { DEFAULT_PROXY_NETWORK } from '@berth/shared/runtime/config';

const network = uniqueName('berth-net');
const networkId = execFileSync('docker', ['network', 'create', '--driver', 'overlay', '--attachable', network], { encoding: 'utf8' }).trim();
const d = deployer();
const apps: string[] = [];
after(async () => {
  await removeDeployed(apps);
  // The network is free once the service's tasks are gone.
  for (let attempt = 0; attempt < 50; attempt++) {
    try { execFileSync('docker', ['network', 'rm', network], { stdio: 'ignore' }); break; } catch { await new Promise((r) => setTimeout(r, 200)); }
  }
});

const SECOND = 1_000_000_000;
const update = { Parallelism: 1, Delay: SECOND, Monitor: 2 * SECOND, MaxFailureRatio: 0.5, FailureAction: 'rollback', Order: 'stop-first' };
const rollback = { Parallelism: 2, Delay: 2 * SECOND, Monitor: SECOND, MaxFailureRatio: 0.25, FailureAction: 'pause', Order: 'stop-first' };
const architecture = process.arch === 'x64' ? 'amd64' : process.arch;

test('every orchestrator field set on an application is in the inspected service spec', async () => {
  const app = testApplication({
    sourceType: 'container', containerImage: TEST_IMAGE, replicas: 1, command: 'httpd -f -p 8080 -h /www',
    memoryLimit: 64 * 1024 * 1024, memoryReservation: 16 * 1024 * 1024, cpuLimit: 500_000_000, cpuReservation: 100_000_000,
    healthCheckOrch: { Test: ['CMD-SHELL', 'wget -q -O /dev/null http://127.0.0.1:8080/ || exit 1'], Interval: SECOND, Timeout: SECOND, StartPeriod: SECOND, Retries: 3 },
    restartPolicyOrch: { Condition: 'on-failure', Delay: SECOND, MaxAttempts: 3, Window: 10 * SECOND },
    placementOrch: {
      Constraints: ['node.role==manager'], Preferences: [{ Spread: { SpreadDescriptor: 'node.id' } }], MaxReplicas: 2,
      Platforms: [{ Architecture: architecture, OS: 'linux' }],
    },
    updateConfigOrch: update,
    rollbackConfigOrch: rollback,
    modeOrch: { Replicated: { Replicas: 1 } },
    // A record saved before such labels were refused: the service does not take them.
    labelsOrch: { 'example.test': 'orchestrator-fields', team: 'deploy', 'com.docker.stack.namespace': 'shop', 'berth.composeId': 'other' },
    networkOrch: [{ Target: network, Aliases: ['web-alias'], DriverOpts: { 'com.docker.network.driver.mtu': '1400' } }],
  });
  apps.push(app.appName);
  const port = await freePort();
  d.ports.set(app.applicationId, [portOf(app, port)]);
  const { error, log } = await deploy(d, app);
  assert.equal(error, null, log.join('\n'));

  const spec = (await engine.inspectService(app.appName))!.spec as any;
  const task = spec.TaskTemplate;
  assert.deepEqual(task.ContainerSpec.Healthcheck, app.healthCheckOrch);
  assert.deepEqual(task.ContainerSpec.Command, ['/bin/sh']);
  assert.deepEqual(task.ContainerSpec.Args, ['-c', app.command]);
  assert.deepEqual(task.RestartPolicy, app.restartPolicyOrch);
  assert.deepEqual(task.Placement, app.placementOrch);
  assert.deepEqual(task.Resources, {
    Limits: { MemoryBytes: app.memoryLimit, NanoCPUs: app.cpuLimit },
    Reservations: { MemoryBytes: app.memoryReservation, NanoCPUs: app.cpuReservation },
  });
  // The proxy's network comes after the application's own, as every application joins it.
  const proxyId = execFileSync('docker', ['network', 'inspect', '--format', '{{.Id}}', DEFAULT_PROXY_NETWORK], { encoding: 'utf8' }).trim();
  assert.deepEqual(task.Networks, [
    { Target: networkId, Aliases: ['web-alias'], DriverOpts: { 'com.docker.network.driver.mtu': '1400' } },
    { Target: proxyId, Aliases: [app.appName] },
  ]);
  assert.deepEqual(spec.UpdateConfig, update);
  assert.deepEqual(spec.RollbackConfig, rollback);
  assert.deepEqual(spec.Mode, { Replicated: { Replicas: 1 } });
  assert.equal(spec.Labels['example.test'], 'orchestrator-fields');
  assert.equal(spec.Labels.team, 'deploy');
  assert.equal(spec.Labels['com.docker.stack.namespace'], undefined);
  assert.equal(spec.Labels['berth.composeId'], undefined);
  assert.deepEqual(spec.EndpointSpec.Ports, [{ Protocol: 'tcp', TargetPort: 8080, PublishedPort: port, PublishMode: 'host' }]);
});
