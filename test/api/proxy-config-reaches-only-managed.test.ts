// Every application's proxy file is read by one proxy, so a user's configuration could use another
// application's service (skipping its basic-auth), take a host it serves, or name another service
// in a server URL. A user may reach only what it manages: refused naming proxyConfig (400, a host
// 409), nothing appended. An admin manages everything, and an owner's own routers still go through.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startBerth, pathsOf, type TestBerth } from '../support/berth.ts';
import { databaseCredentials } from '../support/databases.ts';
import { ALL_FLAGS, invitedUser, type TestUser } from '../support/users.ts';

interface App { applicationId: string; appName: string }

const routers = (body: string) => `http:\n  routers:\n${body}`;
const router = (name: string, rule: string, service: string, extra = '') =>
  `    ${name}:\n      rule: ${JSON.stringify(rule)}\n      service: ${service}\n${extra}`;

describe('what a proxy configuration may reach', () => {
  let berth: TestBerth;
  let victim: App;
  let mine: App;
  let user: TestUser;
  let composeAppName: string;
  let databaseAppName: string;

  before(async () => {
    berth = await startBerth();
    const own = (await berth.ok('project.create', { name: 'own' })).projectId;
    const other = (await berth.ok('project.create', { name: 'other' })).projectId;
    victim = await berth.ok('application.create', { name: 'victim', projectId: other });
    await berth.ok('security.create', { applicationId: victim.applicationId, username: 'boss', password: 'secret-pw' });
    await berth.ok('application.updateProxyConfig', {
      applicationId: victim.applicationId,
      proxyConfig: `${routers(router('victim-web', 'Host(`victim.example`)', `${victim.appName}-service`, `      middlewares: [${victim.appName}-auth]\n`))}`
        + '  services:\n    vault:\n      loadBalancer:\n        servers: [{url: "http://10.0.0.9:80"}]\n',
    });
    // Another whose hosts are patterns, in the proxy's v2 syntax and as a regular expression.
    const patterned = await berth.ok('application.create', { name: 'patterned', projectId: other });
    await berth.ok('application.updateProxyConfig', {
      applicationId: patterned.applicationId,
      proxyConfig: routers(router('pattern-wild', 'HostRegexp(`{sub:[a-z]+}.wild.example`)', `${patterned.appName}-service`, '      ruleSyntax: v2\n')
        + router('pattern-shop', 'HostRegexp(`^shop\\.regex\\.example$`)', `${patterned.appName}-service`)),
    });
    composeAppName = (await berth.ok('compose.create', { name: 'stack', projectId: other })).appName;
    databaseAppName = (await berth.ok('dbalpha.create', { name: 'orders', appName: 'orders', projectId: other, ...databaseCredentials('dbalpha') })).appName;
    user = await invitedUser(berth, { ...ALL_FLAGS, accesedProjects: [own], accesedServices: [] });
    mine = (await berth.call('application.create', { name: 'mine', projectId: own }, { token: user.token })).body;
    // Its access lists grew with the application: a new token carries them.
    user.token = (await berth.call('auth.login', { email: user.email, password: user.password }, { token: null })).body.token;
  });
  after(() => berth.stop());

  /** As berth.refused, called by the user. */
  async function refusedToUser(proxyConfig: string, status: number): Promise<string> {
    const head = await berth.head();
    const answer = await berth.call('application.updateProxyConfig', { applicationId: mine.applicationId, proxyConfig }, { token: user.token });
    assert.equal(answer.status, status, `${proxyConfig}\n${JSON.stringify(answer.body)}`);
    assert.deepEqual(pathsOf(answer.body), ['proxyConfig']);
    assert.equal(await berth.head(), head);
    return answer.body.message as string;
  }

  it('refuses a user a router using another project\'s application\'s service or middleware, or one no file of its own defines', async () => {
    const refusals: [string, RegExp][] = [
      [routers(router('sneak', 'Host(`attacker.example`)', `${victim.appName}-service@file`)), /http\.routers\.sneak uses the service .*-service@file, which application .* does not manage/],
      [routers(router('sneak', 'Host(`attacker.example`)', `${victim.appName}-service`)), /http\.routers\.sneak uses the service/],
      [routers(router('sneak', 'Host(`attacker.example`)', `${mine.appName}-service`, `      middlewares: [${victim.appName}-auth@file]\n`)), /uses the middleware .*-auth@file/],
      [routers(router('sneak', 'Host(`attacker.example`)', 'vault@file')), /uses the service vault@file, which application/],
      [routers(router('sneak', 'Host(`attacker.example`)', 'nowhere')), /uses the service nowhere, which this configuration does not define/],
      [routers(router('sneak', 'Host(`attacker.example`)', 'web@docker')), /which the docker provider defines/],
      [`http:\n  services:\n    mix:\n      weighted:\n        services: [{name: ${victim.appName}-service@file, weight: 1}]\n`, /http\.services\.mix uses the service/],
      [`tcp:\n  routers:\n    raw:\n      rule: "HostSNI(\`raw.example\`)"\n      service: vault\n      tls: {passthrough: true}\n`, /tcp\.routers\.raw uses the service vault/],
    ];
    for (const [proxyConfig, message] of refusals) assert.match(await refusedToUser(proxyConfig, 400), message);
  });

  it('refuses a user a router whose rule may match a host another project\'s application serves, naming the host (409)', async () => {
    const own = `${mine.appName}-service`;
    for (const rule of ['Host(`victim.example`)', 'Host(`mine.example`) || Host(`VICTIM.example`)', 'HostRegexp(`^.+\\.example$`)', 'PathPrefix(`/`)', '!Host(`mine.example`)']) {
      const message = await refusedToUser(routers(router('hijack', rule, own, '      priority: 100000\n')), 409);
      assert.match(message, /http\.routers\.hijack: .*victim\.example/);
    }
    // A pattern in the v2 syntax claims the hosts it matches; a host or the same pattern meets another's pattern.
    // (Several values in one matcher are the v2 syntax: v3 refuses them as a rule it cannot parse.)
    for (const [rule, extra, host] of [
      ['Host(`mine.example`, `victim.example`)', '      ruleSyntax: v2\n', /victim\.example/],
      ['HostRegexp(`{name:[a-z]+}.example`)', '      ruleSyntax: v2\n', /victim\.example/],
      ['Host(`app.wild.example`)', '', /app\.wild\.example/],
      ['HostRegexp(`^shop\\.regex\\.example$`)', '', /shop/],
    ] as const) {
      assert.match(await refusedToUser(routers(router('hijack', rule, own, `      priority: 100000\n${extra}`)), 409), host);
    }
  });

  it('refuses a user a server address naming another project\'s service', async () => {
    for (const [address, appName] of [
      [`http://${victim.appName}:3000`, victim.appName], [`http://tasks.${victim.appName}:3000/`, victim.appName],
      [`http://${composeAppName}_web:80`, composeAppName], [`http://${databaseAppName}:5432`, databaseAppName],
      // The engine's resolver answers a service's name qualified by its network too.
      [`http://${victim.appName}.shared-network:3000`, victim.appName],
    ] as const) {
      const proxyConfig = routers(router('web', 'Host(`mine.example`)', 'mine-backend'))
        + `  services:\n    mine-backend:\n      loadBalancer:\n        servers: [{url: "${address}"}]\n`;
      assert.match(await refusedToUser(proxyConfig, 400), new RegExp(`http\\.services\\.mine-backend\\.loadBalancer\\.servers\\[0\\]\\.url: .* reaches ${appName}, another Berth service`));
    }
    const tcp = `tcp:\n  services:\n    db:\n      loadBalancer:\n        servers: [{address: "${databaseAppName}:5432"}]\n`;
    assert.match(await refusedToUser(tcp, 400), /tcp\.services\.db\.loadBalancer\.servers\[0\]\.address/);
    // Another project's service's address on the engine's networks, as its container shows it.
    for (const address of ['http://10.0.14.2:80', 'http://172.18.0.5:80', 'http://[fd00::5]:80']) {
      const internal = routers(router('web', 'Host(`mine.example`)', 'mine-backend'))
        + `  services:\n    mine-backend:\n      loadBalancer:\n        servers: [{url: "${address}"}]\n`;
      assert.match(await refusedToUser(internal, 400), /is an internal IP address/);
    }
  });

  it('refuses a user a network alias that is another project\'s service\'s name, which the resolver would answer with both', async () => {
    for (const alias of [victim.appName, `${victim.appName}.shared-network`, `${composeAppName}_web`]) {
      const head = await berth.head();
      const answer = await berth.call('application.update', {
        applicationId: mine.applicationId, networkOrch: [{ Target: 'shared-network', Aliases: ['mine-alias', alias] }],
      }, { token: user.token });
      assert.equal(answer.status, 400, JSON.stringify(answer.body));
      assert.deepEqual(pathsOf(answer.body), ['networkOrch']);
      assert.match(answer.body.message, /^networkOrch names the alias .*, which is .*, another Berth service this account does not manage$/);
      assert.equal(await berth.head(), head);
    }
    // Its own name, or one of no Berth service, is the user's to use; an admin's aliases are not confined.
    const own = [{ Target: 'shared-network', Aliases: [mine.appName, 'mine-alias'] }];
    assert.equal((await berth.call('application.update', { applicationId: mine.applicationId, networkOrch: own }, { token: user.token })).status, 200);
    await berth.ok('application.update', { applicationId: mine.applicationId, networkOrch: [{ Target: 'shared-network', Aliases: [victim.appName] }] });
  });

  it('accepts an owner\'s routers to its own application, its own services and the proxy\'s, and an admin\'s to any application', async () => {
    const own = routers(
      router('web', 'Host(`mine.example`) && PathPrefix(`/`)', `${mine.appName}-service@file`, `      middlewares: [${mine.appName}-auth, headers]\n`)
      + router('api', 'Host(`api.mine.example`)', 'backend')
      + router('dashboard', 'Host(`proxy.mine.example`)', 'api@internal', '      middlewares: [noop@internal]\n'),
    ) + '  services:\n    backend:\n      loadBalancer:\n        servers: [{url: "http://' + mine.appName + ':3000"}, {url: "http://203.0.113.5:80"}]\n'
      + '  middlewares:\n    headers:\n      headers:\n        customResponseHeaders: {X-Mine: "1"}\n';
    const answer = await berth.call('application.updateProxyConfig', { applicationId: mine.applicationId, proxyConfig: own }, { token: user.token });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.equal(answer.body.proxyConfig, own);

    // A user who manages the other application too may route to it.
    const both = await invitedUser(berth, { ...ALL_FLAGS, accesedServices: [mine.applicationId, victim.applicationId] });
    const shared = routers(router('shop', 'Host(`victim.example`) && PathPrefix(`/shop`)', `${victim.appName}-service`, `      middlewares: [${victim.appName}-auth]\n`));
    const allowed = await berth.call('application.updateProxyConfig', { applicationId: mine.applicationId, proxyConfig: shared }, { token: both.token });
    assert.equal(allowed.status, 200, JSON.stringify(allowed.body));

    // An admin manages every application: it may route to another's service and share its host.
    const admin = routers(router('front', 'Host(`victim.example`) && PathPrefix(`/shop`)', `${victim.appName}-service@file`))
      + `  services:\n    direct:\n      loadBalancer:\n        servers: [{url: "http://${victim.appName}:3000"}]\n`;
    assert.equal((await berth.ok('application.updateProxyConfig', { applicationId: mine.applicationId, proxyConfig: admin })).proxyConfig, admin);
  });
});
