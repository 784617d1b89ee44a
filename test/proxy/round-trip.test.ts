// What readProxyConfig answers (the whole file Berth wrote) can be saved back with
// updateProxyConfig: Berth's own entries, exactly as it wrote them, are left out of what is
// stored, and the user's part is kept. A user's entry under one of Berth's names with other
// content is still refused.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { parse } from 'yaml';
import { proxyFilePath } from '@berth/shared/adapters/proxy-file';
import { startBerthWithReactors, type TestBerth } from '../support/berth.ts';
import { selfSignedCertificate } from '../support/certificate.ts';
import { eventually } from '../support/engine.ts';

describe('saving back the proxy file readProxyConfig answered', () => {
  let berth: TestBerth;
  let applicationId: string;
  let appName: string;
  before(async () => {
    berth = await startBerthWithReactors();
    const { projectId } = await berth.ok('project.create', { name: 'round' });
    ({ applicationId, appName } = await berth.ok('application.create', { name: 'shop', projectId }));
  });
  after(() => berth.stop());

  it('stores only the user\'s part, and the file keeps Berth\'s entries and the user\'s edit', async () => {
    await berth.ok('port.create', { applicationId, publishedPort: 43690, targetPort: 3000 });
    await berth.ok('redirects.create', { applicationId, regex: '^http://old\\.test/(.*)', replacement: 'https://new.test/${1}', permanent: true });
    await berth.ok('security.create', { applicationId, username: 'alice', password: 'alice-password' });
    await berth.ok('certificates.create', { name: 'shop', ...selfSignedCertificate('shop.test') });
    const router = `http:\n  routers:\n    shop:\n      rule: Host(\`shop.test\`)\n      service: ${appName}-service\n`;
    await berth.ok('application.updateProxyConfig', { applicationId, proxyConfig: router });
    const path = proxyFilePath(berth.berth.infrastructure.config.proxyDir, appName);
    await eventually('the whole file', async () => {
      const text = readFileSync(path, 'utf8');
      return text.includes('alice:') && text.includes('-redirect-') && text.includes('chain.crt') && text.includes('shop.test');
    });
    // The reactor may write once more meanwhile (each write salts the hashes anew): read what it settled on.
    const read: string = await eventually('readProxyConfig answering the file', async () => {
      const answered = await berth.ok('application.readProxyConfig', { applicationId });
      return answered === readFileSync(path, 'utf8') && answered;
    });

    const edited = read.replace('Host(`shop.test`)', 'Host(`shop.test`) || Host(`www.shop.test`)');
    const saved = await berth.call('application.updateProxyConfig', { applicationId, proxyConfig: edited });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    const stored = parse(saved.body.proxyConfig ?? '');
    assert.deepEqual(Object.keys(stored.http), ['routers'], `only the user's routers are stored:\n${saved.body.proxyConfig}`);
    assert.equal(stored.tls, undefined, 'Berth\'s certificate entries are not stored as the user\'s');
    assert.equal(stored.http.routers.shop.middlewares, undefined, 'Berth\'s middlewares, which it appends itself, are not stored as the user\'s');
    assert.ok(!saved.body.proxyConfig.includes('written by Berth'), 'nor is the file\'s header');
    const file = await eventually('the file with the edited rule', async () => {
      const current = parse(readFileSync(path, 'utf8'));
      return current.http.routers.shop.rule.includes('www.shop.test') && current;
    });
    assert.ok(file.http.services[`${appName}-service`]);
    assert.ok(file.http.middlewares[`${appName}-auth`]);
    assert.equal(file.tls.certificates.length, 1);
  });

  it('still refuses an entry under one of Berth\'s names whose content is not what Berth wrote', async () => {
    const read: string = await berth.ok('application.readProxyConfig', { applicationId });
    const changed = read.replace(`url: http://${appName}:3000`, 'url: http://elsewhere:3000');
    assert.notEqual(changed, read);
    const body = await berth.refused<{ message: string }>('application.updateProxyConfig', { applicationId, proxyConfig: changed }, 400, 'proxyConfig');
    assert.match(body.message, new RegExp(`http\\.services\\.${appName}-service: the name is reserved`));
  });
});
