// Renaming an application moves its proxy file: the old one goes, the new one names everything
// Berth owns under the new appName, and the routers a user wrote for the old names are re-pointed
// to the new ones (so they keep reaching the application and get its middlewares). Deleting the
// application leaves no file under any name it had; a former name another application took keeps
// that application's file.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { parse } from 'yaml';
import { proxyFilePath } from '@berth/shared/adapters/proxy-file';
import { proxyStructureFault } from '@berth/shared/domain/application/proxy-schema';
import { proxyFileOf } from '@berth/reactors/proxy/generate';
import { startBerthWithReactors, type TestBerth } from '../support/berth.ts';
import { eventually } from '../support/engine.ts';

const fresh = (prefix: string) => `${prefix}-${randomBytes(3).toString('hex')}`;
/** A router for `appName`'s service with the user's own middleware before Berth's auth. */
const userRouter = (appName: string) => `http:
  routers:
    shop:
      rule: Host(\`shop.test\`)
      service: ${appName}-service
      middlewares: [my-headers, ${appName}-auth@file]
  middlewares:
    my-headers:
      headers:
        customResponseHeaders:
          X-Shop: "1"
`;

describe('the proxy file of a renamed application', () => {
  let berth: TestBerth;
  let projectId: string;
  let dir: string;
  const text = (appName: string) => (existsSync(proxyFilePath(dir, appName)) ? readFileSync(proxyFilePath(dir, appName), 'utf8') : null);
  before(async () => {
    berth = await startBerthWithReactors();
    ({ projectId } = await berth.ok('project.create', { name: 'renames' }));
    dir = berth.berth.infrastructure.config.proxyDir;
  });
  after(() => berth.stop());

  it('moves to the new appName with every Berth name renamed and the user\'s router re-pointed; delete leaves nothing', async () => {
    const { applicationId, appName: old } = await berth.ok('application.create', { name: 'shop', projectId });
    await berth.ok('port.create', { applicationId, publishedPort: 18080, targetPort: 3000 });
    await berth.ok('security.create', { applicationId, username: 'alice', password: 'pw-alice' });
    const { redirectId: r1 } = await berth.ok('redirects.create', { applicationId, regex: '^/old(.*)', replacement: '/new${1}', permanent: true });
    await berth.ok('application.updateProxyConfig', { applicationId, proxyConfig: userRouter(old) });
    await eventually('the file with the router and auth', async () => text(old)?.includes(`${old}-auth`) && text(old)?.includes('shop.test'));

    const renamed = fresh('store');
    await berth.ok('application.update', { applicationId, appName: renamed });
    const written = await eventually('the file under the new name, the old one gone', async () =>
      text(old) === null && text(renamed));
    const file = parse(written);
    assert.equal(proxyStructureFault(file), null);
    assert.ok(!written.includes(old), `nothing names ${old} any more:\n${written}`);
    assert.deepEqual(Object.keys(file.http.services), [`${renamed}-service`]);
    assert.deepEqual(file.http.services[`${renamed}-service`].loadBalancer.servers, [{ url: `http://${renamed}:3000` }]);
    assert.deepEqual(Object.keys(file.http.middlewares).sort(), ['my-headers', `${renamed}-auth`, `${renamed}-redirect-${r1}`]);
    assert.equal(file.http.routers.shop.service, `${renamed}-service`);
    assert.deepEqual(file.http.routers.shop.middlewares, ['my-headers', `${renamed}-redirect-${r1}`, `${renamed}-auth`]);
    assert.equal(await berth.ok('application.readProxyConfig', { applicationId }), written);

    // A later change keeps the stored router re-pointed (the stored text still names the old service).
    const { redirectId: r2 } = await berth.ok('redirects.create', { applicationId, regex: '^/older(.*)', replacement: '/new${1}', permanent: false });
    const later = parse(await eventually('the second redirect', async () => text(renamed)?.includes(`${renamed}-redirect-${r2}`) && text(renamed)));
    assert.deepEqual(later.http.routers.shop.middlewares, ['my-headers', `${renamed}-redirect-${r1}`, `${renamed}-redirect-${r2}`, `${renamed}-auth`]);
    assert.equal(text(old), null);

    await berth.ok('application.delete', { applicationId });
    await eventually('no file left', async () => text(renamed) === null);
    assert.equal(text(old), null);
  });

  it('leaves the file of another application that took the former name, and deletes only its own', async () => {
    const first = await berth.ok('application.create', { name: 'first', projectId });
    await berth.ok('port.create', { applicationId: first.applicationId, publishedPort: 18081, targetPort: 3000 });
    await eventually('the first file', async () => text(first.appName));
    const renamed = fresh('moved');
    await berth.ok('application.update', { applicationId: first.applicationId, appName: renamed });
    await eventually('the first file moved', async () => text(first.appName) === null && text(renamed));

    const second = await berth.ok('application.create', { name: 'second', projectId });
    const taken = first.appName as string;
    await berth.ok('application.update', { applicationId: second.applicationId, appName: taken });
    await berth.ok('port.create', { applicationId: second.applicationId, publishedPort: 18082, targetPort: 4000 });
    const theirs = await eventually('the second file', async () => text(taken)?.includes(':4000') && text(taken));

    const { redirectId } = await berth.ok('redirects.create', { applicationId: first.applicationId, regex: '^/a(.*)', replacement: '/b${1}', permanent: true });
    await eventually('the first application rewritten', async () => text(renamed)?.includes(`${renamed}-redirect-${redirectId}`));
    await berth.ok('application.delete', { applicationId: first.applicationId });
    await eventually('the first application\'s file removed', async () => text(renamed) === null);
    assert.equal(text(taken), theirs, 'the other application\'s file under the former name stays');
    await berth.ok('application.delete', { applicationId: second.applicationId });
    await eventually('the second application\'s file removed', async () => text(taken) === null);
  });
});

describe('the generated file after renames', () => {
  it('re-points every Berth name of any former appName, with or without @file, and leaves other names alone', () => {
    const userConfig = `http:
  routers:
    web:
      rule: Host(\`web.test\`)
      service: first-service@file
      middlewares: [first-redirect-3, second-auth@file, mine]
    other:
      rule: Host(\`other.test\`)
      service: elsewhere-service
      middlewares: [second-auth]
  middlewares:
    mine: { headers: { customResponseHeaders: { X-Mine: "1" } } }
    second-auth: { basicAuth: { users: ["old:entry"] } }
  services:
    first-service: { loadBalancer: { servers: [{ url: "http://first:1" }] } }
    elsewhere-service: { loadBalancer: { servers: [{ url: "http://elsewhere:1" }] } }
`;
    const file = parse(proxyFileOf({
      applicationId: 'a1', appName: 'third', formerAppNames: ['first', 'second'], userConfig, targetPort: 8080,
      redirects: [{ redirectId: 'x1', regex: '^/x', replacement: '/y', permanent: true }], users: ['alice:hash'], certificatePaths: [], proxyDir: '/proxy', previousFile: null,
    }));
    assert.equal(file.http.routers.web.service, 'third-service@file');
    assert.deepEqual(file.http.routers.web.middlewares, ['mine', 'third-redirect-x1', 'third-auth']);
    assert.equal(file.http.routers.other.service, 'elsewhere-service');
    assert.deepEqual(file.http.routers.other.middlewares, ['third-auth'], 'a router to another service follows the rename too');
    assert.deepEqual(Object.keys(file.http.services).sort(), ['elsewhere-service', 'third-service']);
    assert.deepEqual(file.http.services['third-service'].loadBalancer.servers, [{ url: 'http://third:8080' }]);
    assert.deepEqual(Object.keys(file.http.middlewares).sort(), ['mine', 'third-auth', 'third-redirect-x1']);
    assert.deepEqual(file.http.middlewares['third-auth'].basicAuth.users, ['alice:hash'], 'Berth\'s own middleware, not the stored one');
  });
});
