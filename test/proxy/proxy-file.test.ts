// Issue test 8 on the proxy writer: an application with two redirects, two security users and a
// certificate. The proxy itself cannot run here: the file is checked against the structure of its
// documented dynamic configuration (the same check updateProxyConfig applies).
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { test } from 'node:test';
import { htpasswdMatches } from '@berth/shared/crypto/htpasswd';
import { parse } from 'yaml';
import { proxyStructureFault } from '@berth/shared/domain/application/proxy-schema';
import { proxyFilePath } from '@berth/shared/adapters/proxy-file';
import { writeApplicationProxy } from '@berth/reactors/proxy/write';
import { deployer, portOf, testApplication } from '../support/deploy-work.ts';

const d = deployer();
const app = testApplication();
const at = (n: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString();
d.ports.set(app.applicationId, [{ ...portOf(app, 18080, 3000), createdAt: at(1) }, { ...portOf(app, 18081, 9000), createdAt: at(2) }]);
d.redirects.set(app.applicationId, [
  { redirectId: 'r1', applicationId: app.applicationId, regex: '^http://old\\.test/(.*)', replacement: 'https://new.test/${1}', permanent: true, createdAt: at(1) },
  { redirectId: 'r2', applicationId: app.applicationId, regex: '^https://www\\.(.*)', replacement: 'https://${1}', permanent: false, createdAt: at(2) },
]);
d.securities.set(app.applicationId, ['alice', 'bob'].map((username, index) => ({
  securityId: `s${index}`, applicationId: app.applicationId, username, password: d.deps.secrets.seal(`${username}-password`), createdAt: at(index),
})));
d.certificates.push({ certificatePath: 'certificates/c1' } as never);

const USER_ROUTER = `http:\n  routers:\n    shop:\n      rule: Host(\`shop.test\`)\n      entryPoints: [websecure]\n      service: ${app.appName}-service\n      middlewares: [my-headers]\n  middlewares:\n    my-headers:\n      headers:\n        customResponseHeaders:\n          X-Shop: "1"\n`;

test('the proxy file holds the service, redirect and basic-auth middlewares and TLS entries, in the proxy\'s structure', async () => {
  await writeApplicationProxy(d.deps, { ...app, proxyConfig: null });
  const file = parse(readFileSync(proxyFilePath(d.deps.settings.proxyDir, app.appName), 'utf8'));
  assert.equal(proxyStructureFault(file), null);
  assert.deepEqual(file.http.services[`${app.appName}-service`].loadBalancer.servers, [{ url: `http://${app.appName}:3000` }]);
  assert.deepEqual(file.http.middlewares[`${app.appName}-redirect-r1`], {
    redirectRegex: { regex: '^http://old\\.test/(.*)', replacement: 'https://new.test/${1}', permanent: true },
  });
  assert.equal(file.http.middlewares[`${app.appName}-redirect-r2`].redirectRegex.permanent, false);
  const users: string[] = file.http.middlewares[`${app.appName}-auth`].basicAuth.users;
  assert.deepEqual(users.map((entry) => entry.split(':')[0]), ['alice', 'bob']);
  assert.ok(htpasswdMatches(users[0]!, 'alice-password'), 'the password is stored as a bcrypt hash');
  assert.ok(!JSON.stringify(file).includes('alice-password'));
  assert.deepEqual(file.tls.certificates, [{
    certFile: `${d.deps.settings.proxyDir}/certificates/c1/chain.crt`, keyFile: `${d.deps.settings.proxyDir}/certificates/c1/privkey.key`,
  }]);
});

test('a router the user wrote survives a later redirect change and gets Berth\'s middlewares after its own', async () => {
  await writeApplicationProxy(d.deps, { ...app, proxyConfig: USER_ROUTER });
  d.redirects.set(app.applicationId, d.redirects.get(app.applicationId)!.slice(0, 1));
  await writeApplicationProxy(d.deps, { ...app, proxyConfig: USER_ROUTER });
  const file = parse(readFileSync(proxyFilePath(d.deps.settings.proxyDir, app.appName), 'utf8'));
  assert.equal(proxyStructureFault(file), null);
  assert.equal(file.http.routers.shop.rule, 'Host(`shop.test`)');
  assert.deepEqual(file.http.routers.shop.middlewares, ['my-headers', `${app.appName}-redirect-r1`, `${app.appName}-auth`]);
  assert.ok(file.http.middlewares['my-headers'].headers);
  assert.equal(file.http.middlewares[`${app.appName}-redirect-r2`], undefined, 'the removed redirect is gone');
});

test('rewriting an application whose records did not change leaves its file untouched; a new password changes only that user\'s entry', async () => {
  const path = proxyFilePath(d.deps.settings.proxyDir, app.appName);
  await writeApplicationProxy(d.deps, { ...app, proxyConfig: null });
  const before = readFileSync(path, 'utf8');
  const written = statSync(path);
  await writeApplicationProxy(d.deps, { ...app, proxyConfig: null });
  assert.equal(readFileSync(path, 'utf8'), before);
  assert.equal(statSync(path).ino, written.ino, 'the file was not replaced');

  const [alice, bob] = d.securities.get(app.applicationId)!;
  d.securities.set(app.applicationId, [alice!, { ...bob!, password: d.deps.secrets.seal('a new password') }]);
  await writeApplicationProxy(d.deps, { ...app, proxyConfig: null });
  const users = (file: string): string[] => parse(file).http.middlewares[`${app.appName}-auth`].basicAuth.users;
  const [aliceBefore, bobBefore] = users(before);
  const [aliceAfter, bobAfter] = users(readFileSync(path, 'utf8'));
  assert.equal(aliceAfter, aliceBefore);
  assert.notEqual(bobAfter, bobBefore);
  assert.ok(htpasswdMatches(bobAfter!, 'a new password'));
});

test('a router that takes Berth\'s service through a YAML merge key gets Berth\'s middlewares too', async () => {
  const userConfig = `x-common: &common\n  service: ${app.appName}-service\n  entryPoints: [web]\nhttp:\n  routers:\n    merged:\n      <<: *common\n      rule: Host(\`merged.test\`)\n`;
  await writeApplicationProxy(d.deps, { ...app, proxyConfig: userConfig });
  // Read as the proxy reads it: merge keys resolved.
  const file = parse(readFileSync(proxyFilePath(d.deps.settings.proxyDir, app.appName), 'utf8'), { merge: true });
  assert.equal(file.http.routers.merged.service, `${app.appName}-service`);
  assert.ok(file.http.routers.merged.middlewares.includes(`${app.appName}-auth`), JSON.stringify(file.http.routers.merged));
});
