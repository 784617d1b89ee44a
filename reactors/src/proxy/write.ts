// Rewrites an application's proxy file from its records: called after a deploy and on every
// change to its ports, redirects, security users, certificates or stored configuration.
import { htpasswdEntry } from '@berth/shared/crypto/htpasswd';
import type { Application } from '@berth/shared/domain/application/record';
import type { DeployerDeps } from '../deployer/deps.ts';
import { writeProxyFile } from '@berth/shared/adapters/proxy-file';
import { proxyFileOf } from './generate.ts';

export async function writeApplicationProxy(deps: Pick<DeployerDeps, 'records' | 'secrets' | 'settings'>,
  app: Pick<Application, 'applicationId' | 'appName' | 'proxyConfig'>): Promise<string> {
  const [ports, redirects, securities, certificates] = await Promise.all([
    deps.records.ports(app.applicationId), deps.records.redirects(app.applicationId),
    deps.records.securities(app.applicationId), deps.records.certificates(),
  ]);
  const text = proxyFileOf({
    appName: app.appName,
    userConfig: app.proxyConfig,
    targetPort: ports[0]?.targetPort ?? null,
    redirects,
    users: securities.map((user) => htpasswdEntry(user.username, deps.secrets.open(user.password))),
    certificatePaths: certificates.map((certificate) => certificate.certificatePath),
    proxyDir: deps.settings.proxyDir,
  });
  await writeProxyFile(deps.settings.proxyDir, app.appName, text);
  return text;
}
