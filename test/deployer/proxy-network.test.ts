// The proxy file of an application sends to `http://<appName>:<port>`. The engine's resolver answers
// that name only on a network the service shares with the proxy, and an application joined none
// unless its user set networkOrch: the routing audit's proxy got NXDOMAIN. Every application now
// joins Berth's proxy network (BERTH_PROXY_NETWORK) under its appName; the deployer makes the
// network once, whoever races it, and refuses one of that name of the wrong kind.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, test } from 'node:test';
import type { Application } from '@berth/shared/domain/application/record';
import { PROXY_NETWORK_LABEL } from '@berth/shared/domain/ownership';
import { TEST_IMAGE, engine, eventually, removeDeployed, uniqueName } from '../support/engine.ts';
import { deploy, deployer, testApplication } from '../support/deploy-work.ts';

const docker = (...args: string[]) => execFileSync('docker', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
// Names of this test's own: the proxy networks other tests' deployments join are left alone.
const proxyNetwork = uniqueName('berth-test-pn-proxy');
const networks: string[] = [proxyNetwork];
const apps: string[] = [];
after(async () => {
  await removeDeployed(apps);
  // A network is free once the tasks that joined it are gone.
  for (const network of networks) {
    for (let attempt = 0; attempt < 50; attempt++) {
      try { docker('network', 'rm', network); break; } catch (error) {
        if (/not found/.test(String((error as { stderr?: unknown }).stderr))) break;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
  }
});

/** An application of the test image serving `body` on :8080 (no published port: the proxy reaches the target port). */
const serving = (body: string, fields: Partial<Application> = {}): Application => {
  const app = testApplication({
    appName: uniqueName('berth-test-pn-app'), sourceType: 'container', containerImage: TEST_IMAGE,
    command: `mkdir -p /tmp/w && echo ${body} > /tmp/w/index.html && trap "exit 0" TERM; httpd -f -p 8080 -h /tmp/w & wait`,
    ...fields,
  });
  apps.push(app.appName);
  return app;
};

/** A throwaway container on `network` running `script` with node, as a proxy would (the C library's resolver, an HTTP client). */
const PROBE_IMAGE = 'node:22-bookworm-slim';
const probe = (network: string, script: string, ...args: string[]): string =>
  docker('run', '--rm', '--name', uniqueName('berth-test-pn-probe'), '--network', network, PROBE_IMAGE, 'node', '-e', script, ...args);
const FETCH = 'fetch(process.argv[1], { signal: AbortSignal.timeout(3000) }).then((r) => r.text()).then((t) => process.stdout.write(t))';

test('an application\'s service answers the proxy by its appName on Berth\'s proxy network', async () => {
  const d = deployer({ proxyNetwork });
  const body = uniqueName('berth-test-pn-answer');
  const app = serving(body);
  const { error, log } = await deploy(d, app);
  assert.equal(error, null, log.join('\n'));
  const proxyId = docker('network', 'inspect', '--format', '{{.Id}}', proxyNetwork);
  assert.deepEqual((await engine.inspectService(app.appName))?.spec.TaskTemplate.Networks, [{ Target: proxyId, Aliases: [app.appName] }]);
  // The name the proxy file's URL gives answers the tasks' addresses on the proxy's network (it was NXDOMAIN).
  const answer = await eventually(`http://${app.appName}:8080/ on ${proxyNetwork}`, async () => probe(proxyNetwork, FETCH, `http://${app.appName}:8080/`));
  assert.equal(answer.trim(), body);
});

test('the proxy network is an attachable swarm overlay labelled as Berth\'s, with no service\'s mark', async () => {
  const made = await engine.network(proxyNetwork);
  assert.deepEqual(made && { ...made, labels: { ...made.labels } }, {
    name: proxyNetwork, driver: 'overlay', scope: 'swarm', ingress: false, attachable: true, labels: { [PROXY_NETWORK_LABEL]: 'true' },
  });
});

test('a user naming the proxy network in networkOrch deploys, joined once, with the appName and the user\'s aliases', async () => {
  const d = deployer({ proxyNetwork });
  const alias = uniqueName('berth-test-pn-alias');
  const app = serving('aliased', { networkOrch: [{ Target: proxyNetwork, Aliases: [alias] }] });
  const { error, log } = await deploy(d, app);
  assert.equal(error, null, log.join('\n'));
  const proxyId = docker('network', 'inspect', '--format', '{{.Id}}', proxyNetwork);
  assert.deepEqual((await engine.inspectService(app.appName))?.spec.TaskTemplate.Networks, [{ Target: proxyId, Aliases: [app.appName, alias] }]);
});

/** The networks whose name holds `name` (the engine's filter takes no anchors for a swarm network no task uses here yet). */
const named = (name: string) => docker('network', 'ls', '--filter', `name=${name}`, '--format', '{{.Name}}').split('\n');

test('the network is made once when deployments race to make it', async () => {
  const racing = uniqueName('berth-test-pn-race');
  networks.push(racing);
  const d = deployer({ proxyNetwork: racing });
  const deployed = await Promise.all([1, 2, 3].map((n) => deploy(d, serving(`race-${n}`))));
  for (const { error, log } of deployed) assert.equal(error, null, log.join('\n'));
  assert.equal(deployed.filter(({ log }) => log.includes(`Made the proxy's network ${racing}`)).length, 1);
  assert.deepEqual(named(racing), [racing]);
  // And at the port: of creates at once, one makes it and the others are told it is there.
  const direct = uniqueName('berth-test-pn-direct');
  networks.push(direct);
  const made = await Promise.all([1, 2, 3, 4, 5].map(() => engine.createOverlayNetwork(direct, { [PROXY_NETWORK_LABEL]: 'true' })));
  assert.deepEqual(made.filter(Boolean).length, 1, String(made));
  assert.deepEqual(named(direct), [direct]);
});

test('a network of that name of the wrong kind fails the deployment with the reason, and makes no service', async () => {
  const bridge = uniqueName('berth-test-pn-bridge');
  const fixed = uniqueName('berth-test-pn-fixed');
  networks.push(bridge, fixed);
  docker('network', 'create', '--driver', 'bridge', bridge);
  docker('network', 'create', '--driver', 'overlay', fixed);
  const cases: Array<[string, RegExp]> = [
    [bridge, /^BERTH_PROXY_NETWORK: the proxy's network \S+ cannot serve: it is not a swarm overlay network \(its driver is bridge, its scope local\)/],
    [fixed, /^BERTH_PROXY_NETWORK: the proxy's network \S+ cannot serve: it is not attachable/],
  ];
  for (const [network, reason] of cases) {
    const app = serving('refused');
    const { error, log } = await deploy(deployer({ proxyNetwork: network }), app);
    assert.match(error?.message ?? 'deployed', reason, log.join('\n'));
    assert.equal(await engine.inspectService(app.appName), null);
  }
});
