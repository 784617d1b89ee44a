// The service Berth writes is an HTTP load balancer: it reaches the application on its first TCP
// port, never a UDP one. The TLS certificates a user's configuration lists are written with
// Berth's, so what updateProxyConfig accepted is what the proxy reads.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { proxyFilePath } from '@berth/shared/adapters/proxy-file';
import { proxyFileOf } from '@berth/reactors/proxy/generate';
import { writeApplicationProxy } from '@berth/reactors/proxy/write';
import { deployer, portOf, testApplication } from '../support/deploy-work.ts';

describe('the service and TLS entries Berth writes', () => {
  it('reaches the application on its first TCP port when a UDP port was added before it', async () => {
    const d = deployer();
    const app = testApplication();
    d.ports.set(app.applicationId, [{ ...portOf(app, 43697, 53), protocol: 'udp' }, portOf(app, 43698, 8080)]);
    await writeApplicationProxy(d.deps, { ...app, proxyConfig: null });
    const file = parse(readFileSync(proxyFilePath(d.deps.settings.proxyDir, app.appName), 'utf8'));
    assert.deepEqual(file.http.services[`${app.appName}-service`].loadBalancer.servers, [{ url: `http://${app.appName}:8080` }]);
  });

  it('writes the user\'s tls.certificates first, Berth\'s after, each once', () => {
    const mine = { certFile: '/etc/ssl/mine/a.crt', keyFile: '/etc/ssl/mine/a.key' };
    const berths = { certFile: '/proxy/certificates/c1/chain.crt', keyFile: '/proxy/certificates/c1/privkey.key' };
    const userConfig = `tls:\n  certificates:\n    - certFile: ${mine.certFile}\n      keyFile: ${mine.keyFile}\n`
      + `    - certFile: ${berths.certFile}\n      keyFile: ${berths.keyFile}\n  options:\n    modern:\n      minVersion: VersionTLS13\n`;
    const file = parse(proxyFileOf({
      applicationId: 'a1', appName: 'shop', formerAppNames: [], userConfig, targetPort: 8080, redirects: [], users: [],
      certificatePaths: ['certificates/c1'], proxyDir: '/proxy', previousFile: null,
    }));
    assert.deepEqual(file.tls.certificates, [mine, berths]);
    assert.deepEqual(file.tls.options, { modern: { minVersion: 'VersionTLS13' } });
  });
});
