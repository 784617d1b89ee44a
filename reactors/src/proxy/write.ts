// Rewrites an application's proxy file from its records: called after a deploy and on every
// change to its ports, redirects, security users, certificates or stored configuration.
import { htpasswdEntry, htpasswdMatches } from '@berth/shared/crypto/htpasswd';
import type { Application } from '@berth/shared/domain/application/record';
import type { DeployerDeps } from '../deployer/deps.ts';
import { readProxyFile, writeProxyFile } from '@berth/shared/adapters/proxy-file';
import { proxyFileOf } from './generate.ts';

export async function writeApplicationProxy(deps: Pick<DeployerDeps, 'records' | 'secrets' | 'settings'>,
  app: Pick<Application, 'applicationId' | 'appName' | 'proxyConfig'>): Promise<string> {
  const [ports, redirects, securities, certificates, previous] = await Promise.all([
    deps.records.ports(app.applicationId), deps.records.redirects(app.applicationId),
    deps.records.securities(app.applicationId), deps.records.certificates(),
    readProxyFile(deps.settings.proxyDir, app.appName),
  ]);
  const text = proxyFileOf({
    appName: app.appName,
    userConfig: app.proxyConfig,
    targetPort: ports[0]?.targetPort ?? null,
    redirects,
    users: securities.map((user) => entryOf(previous, user.username, deps.secrets.open(user.password))),
    certificatePaths: certificates.map((certificate) => certificate.certificatePath),
    proxyDir: deps.settings.proxyDir,
  });
  // The proxy reloads a file it sees change: one whose content is the same is left alone.
  if (text !== previous) await writeProxyFile(deps.settings.proxyDir, app.appName, text);
  return text;
}

const BCRYPT = String.raw`\$2[aby]\$\d\d\$[./A-Za-z0-9]{53}`;
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The user's entry as the file already holds it, while it still matches the password: each new
 * hash has a new salt, so hashing again would change the file (and reload the proxy) for nothing.
 */
function entryOf(previous: string | null, username: string, password: string): string {
  const kept = previous && new RegExp(`(?<![^\\s'"-])${escaped(username)}:${BCRYPT}`).exec(previous)?.[0];
  return kept && htpasswdMatches(kept, password) ? kept : htpasswdEntry(username, password);
}
