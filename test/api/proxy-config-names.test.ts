// The proxy reads every application's file from one folder and keeps the first definition of a
// name: a configuration that defines a name Berth writes for an application (400), or one another
// application's configuration defines (409), is refused, naming proxyConfig, and appends nothing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startBerth, type TestBerth } from '../support/berth.ts';

const router = (name: string, service: string) => `http:\n  routers:\n    ${name}:\n      rule: Host(\`${name}.test\`)\n      service: ${service}\n`;

describe('names in a proxy configuration', () => {
  let berth: TestBerth;
  let projectId: string;
  before(async () => {
    berth = await startBerth();
    projectId = (await berth.ok('project.create', { name: 'proxied' })).projectId;
  });
  after(() => berth.stop());

  const create = async (name: string) => (await berth.ok('application.create', { name, projectId })) as { applicationId: string; appName: string };

  it('refuses another application\'s service or basic-auth middleware, and the names Berth writes for its own', async () => {
    const shop = await create('shop');
    const bank = await create('bank');
    const hijacks = [
      `http:\n  services:\n    ${bank.appName}-service:\n      loadBalancer:\n        servers: [{url: "http://evil:80"}]\n`,
      `http:\n  middlewares:\n    ${bank.appName}-auth:\n      basicAuth:\n        users: ["me:$2y$10$abcdefghijklmnopqrstuuCm8kqXHmNdc4yq6jGiWqG9e2X6bmW1K"]\n`,
      `http:\n  middlewares:\n    ${shop.appName}-redirect-www:\n      redirectScheme:\n        scheme: https\n`,
    ];
    for (const proxyConfig of hijacks) {
      const refused = await berth.refused('application.updateProxyConfig', { applicationId: shop.applicationId, proxyConfig }, 400, 'proxyConfig');
      assert.match(refused.message, /the name is reserved for the (service|basic-auth middleware|redirect middlewares) Berth writes for application \S+ from its (ports|security users|redirects); leave this entry out of the configuration you save/);
    }
    // Its own service, as the proxy's file holds it and a user writes it back: what to do is to leave it out.
    const ownService = `http:\n  services:\n    ${shop.appName}-service:\n      loadBalancer:\n        servers: [{url: "http://${shop.appName}:80"}]\n`;
    const refused = await berth.refused('application.updateProxyConfig', { applicationId: shop.applicationId, proxyConfig: ownService }, 400, 'proxyConfig');
    assert.equal(refused.message, `proxyConfig http.services.${shop.appName}-service: the name is reserved for the service Berth writes for application ${shop.appName} from its ports; `
      + 'leave this entry out of the configuration you save (Berth writes it itself) and keep only your own routers, middlewares and services');
    await berth.ok('application.updateProxyConfig', { applicationId: shop.applicationId, proxyConfig: router('shop', `${shop.appName}-service`) });
  });

  it('refuses a router, service or middleware name another application\'s configuration defines', async () => {
    const first = await create('first');
    const second = await create('second');
    const shared = router('storefront', `${first.appName}-service`);
    await berth.ok('application.updateProxyConfig', { applicationId: first.applicationId, proxyConfig: shared });
    const refused = await berth.refused('application.updateProxyConfig', { applicationId: second.applicationId, proxyConfig: router('storefront', `${second.appName}-service`) }, 409, 'proxyConfig');
    assert.match(refused.message, /http\.routers\.storefront: another application's proxy configuration already defines this name/);
    await berth.ok('application.updateProxyConfig', { applicationId: first.applicationId, proxyConfig: shared }); // its own again is no clash
    await berth.refused('application.updateProxyConfig', { applicationId: 'nope', proxyConfig: shared }, 404, 'applicationId');
    // The name goes with the configuration that defined it: then the other application may define it.
    await berth.ok('application.updateProxyConfig', { applicationId: first.applicationId, proxyConfig: router('elsewhere', `${first.appName}-service`) });
    await berth.ok('application.updateProxyConfig', { applicationId: second.applicationId, proxyConfig: router('storefront', `${second.appName}-service`) });
  });

  it('claims no name for a configuration the proxy would refuse', async () => {
    const first = await create('invalid');
    const second = await create('valid');
    const refused = `http:\n  routers:\n    claimed-or-not:\n      rule: Host(\`x.test\`)\n      service: s\n      unknownKey: 1\n`;
    await berth.refused('application.updateProxyConfig', { applicationId: first.applicationId, proxyConfig: refused }, 400, 'proxyConfig');
    await berth.ok('application.updateProxyConfig', { applicationId: second.applicationId, proxyConfig: router('claimed-or-not', `${second.appName}-service`) });
  });

  it("refuses renaming an application to a name whose service or middlewares another application's configuration already defines, naming appName", async () => {
    const first = await create('definer');
    const second = await create('renamed');
    const taken = `target-${Math.random().toString(36).slice(2, 8)}`;
    await berth.ok('application.updateProxyConfig', {
      applicationId: first.applicationId,
      proxyConfig: `http:\n  services:\n    ${taken}-service:\n      loadBalancer:\n        servers: [{url: "http://elsewhere:80"}]\n`,
    });
    const refused = await berth.refused('application.update', { applicationId: second.applicationId, appName: taken }, 409, 'appName');
    assert.match(refused.message, new RegExp(`${taken}-service, which another application's proxy configuration defines`));
    await berth.ok('application.update', { applicationId: second.applicationId, appName: `${taken}-free` });
  });
});
