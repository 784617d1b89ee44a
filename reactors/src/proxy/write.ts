// Rewrites an application's proxy file from its records: called after a deploy and on every
// change to its ports, redirects, security users, certificates or stored configuration.
import bcrypt from 'bcryptjs';
import type { Application } from '@berth/shared/domain/application/record';
import type { DeployerDeps } from '../deployer/deps.ts';
import { writeProxyFile } from './file.ts';
import { proxyFileOf } from './generate.ts';

/** An htpasswd entry the proxy's basicAuth accepts (bcrypt). */
export const basicAuthEntry = (username: string, password: string) => `${username}:${bcrypt.hashSync(password, 10)}`;

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
    users: securities.map((user) => basicAuthEntry(user.username, deps.secrets.open(user.password))),
    certificatePaths: certificates.map((certificate) => certificate.certificatePath),
    proxyDir: deps.settings.proxyDir,
  });
  await writeProxyFile(deps.settings.proxyDir, app.appName, text);
  return text;
}
