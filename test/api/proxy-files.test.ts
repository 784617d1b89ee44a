// Issue test 8 through the API: the reactors keep an application's proxy file in step with its
// redirects, security users, certificates and the routers its user wrote. The proxy cannot run
// here: the file is checked against the structure of its documented dynamic configuration.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { parse } from 'yaml';
import { proxyStructureFault } from '@berth/shared/domain/application/proxy-schema';
import { proxyFilePath } from '@berth/shared/adapters/proxy-file';
import { startBerthWithReactors, type TestBerth } from '../support/berth.ts';
import { selfSignedCertificate } from '../support/certificate.ts';
import { eventually } from '../support/engine.ts';

describe('proxy files through the API', () => {
  let berth: TestBerth;
  let applicationId: string;
  let appName: string;
  let path: string;
  const file = () => parse(readFileSync(path, 'utf8'));
  before(async () => {
    berth = await startBerthWithReactors();
    const { projectId } = await berth.ok('project.create', { name: 'proxied' });
    ({ applicationId, appName } = await berth.ok('application.create', { name: 'shop', projectId }));
    path = proxyFilePath(berth.berth.infrastructure.config.proxyDir, appName);
  });
  after(() => berth.stop());

  it('holds two redirects, two basic-auth users and the certificate, keeps a user\'s router, and refuses invalid YAML', async () => {
    await berth.ok('port.create', { applicationId, publishedPort: 18080, targetPort: 3000 });
    const first = await berth.ok('redirects.create', { applicationId, regex: '^http://old\\.test/(.*)', replacement: 'https://new.test/${1}', permanent: true });
    const second = await berth.ok('redirects.create', { applicationId, regex: '^https://www\\.(.*)', replacement: 'https://${1}', permanent: false });
    await berth.ok('security.create', { applicationId, username: 'alice', password: 'alice-password' });
    await berth.ok('security.create', { applicationId, username: 'bob', password: 'bob-password' });
    const certificate = await berth.ok('certificates.create', { name: 'shop', ...selfSignedCertificate('shop.test') });
    const router = `http:\n  routers:\n    shop:\n      rule: Host(\`shop.test\`)\n      service: ${appName}-service\n      tls: {}\n`;
    await berth.ok('application.updateProxyConfig', { applicationId, proxyConfig: router });

    const written = await eventually('the whole file', async () => {
      if (!existsSync(path)) return null;
      const current = file();
      return current.http?.routers?.shop && current.tls?.certificates?.length === 1
        && current.http.middlewares?.[`${appName}-auth`]?.basicAuth.users.length === 2 ? current : null;
    });
    assert.equal(proxyStructureFault(written), null);
    assert.deepEqual(written.http.services[`${appName}-service`].loadBalancer.servers, [{ url: `http://${appName}:3000` }]);
    assert.equal(Object.keys(written.http.middlewares).filter((name) => name.includes('-redirect-')).length, 2);
    assert.deepEqual(written.http.routers.shop.middlewares, [`${appName}-redirect-${first.redirectId}`, `${appName}-redirect-${second.redirectId}`, `${appName}-auth`]);
    assert.ok(written.tls.certificates[0].certFile.endsWith(`${certificate.certificatePath}/chain.crt`));
    assert.ok(existsSync(written.tls.certificates[0].certFile), 'the certificate\'s own file is written');
    // The reactor may write the file once more meanwhile (each write salts the password hashes anew).
    await eventually('readProxyConfig answering the file', async () =>
      (await berth.ok('application.readProxyConfig', { applicationId })) === readFileSync(path, 'utf8'));

    await berth.ok('redirects.update', { redirectId: first.redirectId, regex: '^http://older\\.test/(.*)', replacement: 'https://new.test/${1}', permanent: true });
    const changed = await eventually('the changed redirect', async () => {
      const current = file();
      return current.http.middlewares[`${appName}-redirect-${first.redirectId}`].redirectRegex.regex === '^http://older\\.test/(.*)' ? current : null;
    });
    assert.equal(changed.http.routers.shop.rule, 'Host(`shop.test`)', 'the user\'s router survives');

    const before = readFileSync(path, 'utf8');
    const refused = await berth.refused('application.updateProxyConfig', { applicationId, proxyConfig: 'http: [unclosed' }, 400, 'proxyConfig');
    assert.match(refused.message, /not valid YAML/);
    await berth.refused('application.updateProxyConfig', { applicationId, proxyConfig: 'http:\n  routers:\n    x:\n      service: s\n' }, 400, 'proxyConfig');
    assert.equal(readFileSync(path, 'utf8'), before, 'the file is unchanged');
  });
});
