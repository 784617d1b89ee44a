// An application's networkOrch names the networks its tasks join. `host` put a tenant's task in the
// host's network namespace (Berth's loopback-only API, every host port, no port claims); `bridge`,
// `ingress` and a compose stack's network are not the application's to join either. A deployment
// resolves each on the engine and fails, touching nothing, unless it is a plain swarm overlay.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, test } from 'node:test';
import type { Application } from '@berth/shared/domain/application/record';
import { TEST_IMAGE, engine, uniqueName, removeDeployed } from '../support/engine.ts';
import { deploy, deployer, testApplication } from '../support/deploy-work.ts';
import { DEFAULT_PROXY_NETWORK } from '@berth/shared/runtime/config';

const docker = (...args: string[]) => execFileSync('docker', args, { encoding: 'utf8' }).trim();
const plain = uniqueName('berth-test-net-plain');
const stack = uniqueName('berth-test-net-stack');
const plainId = docker('network', 'create', '--driver', 'overlay', '--attachable', plain);
docker('network', 'create', '--driver', 'overlay', '--attachable', '--label', 'berth.composeId=someone-elses', stack);
const d = deployer();
const apps: string[] = [];
after(async () => {
  await removeDeployed(apps);
  // A network is free once the tasks that joined it are gone.
  for (const network of [plain, stack]) {
    for (let attempt = 0; attempt < 50; attempt++) {
      try { docker('network', 'rm', network); break; } catch { await new Promise((r) => setTimeout(r, 200)); }
    }
  }
});

const joining = (Target: string): Application => {
  const app = testApplication({
    appName: uniqueName('berth-test-net-app'), sourceType: 'container', containerImage: TEST_IMAGE,
    command: 'trap "exit 0" TERM; sleep 3600 & wait', networkOrch: [{ Target }],
  });
  apps.push(app.appName);
  return app;
};

test('fails a deployment whose application joins the host network, and makes no service', async () => {
  const app = joining('host');
  const { error, log } = await deploy(d, app);
  assert.match(error?.message ?? 'deployed', /networkOrch: host is not a swarm overlay network/, log.join('\n'));
  assert.equal(await engine.inspectService(app.appName), null);
});

test('fails one joining bridge, docker_gwbridge, ingress, a compose stack\'s network, a network by its id, or none there is', async () => {
  const refused: Array<[string, RegExp]> = [
    ['bridge', /bridge is not a swarm overlay network/],
    ['docker_gwbridge', /docker_gwbridge is not a swarm overlay network/],
    ['ingress', /ingress is the engine's routing mesh/],
    [stack, /was made by Berth for another service/],
    [plainId, /no network is named/],
    [uniqueName('berth-test-net-missing'), /no network is named/],
  ];
  for (const [target, reason] of refused) {
    const app = joining(target);
    const { error, log } = await deploy(d, app);
    assert.match(error?.message ?? 'deployed', reason, `${target}: ${log.join('\n')}`);
    assert.equal(await engine.inspectService(app.appName), null, target);
  }
});

test('deploys one joining a swarm overlay network by its name (and the proxy\'s, as every application)', async () => {
  const app = joining(plain);
  const { error, log } = await deploy(d, app);
  assert.equal(error, null, log.join('\n'));
  const proxyId = docker('network', 'inspect', '--format', '{{.Id}}', DEFAULT_PROXY_NETWORK);
  assert.deepEqual((await engine.inspectService(app.appName))?.spec.TaskTemplate.Networks,
    [{ Target: plainId }, { Target: proxyId, Aliases: [app.appName] }]);
});
