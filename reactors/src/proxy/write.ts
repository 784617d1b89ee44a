// Rewrites an application's proxy file from its records, on every change to its name, ports,
// redirects, security users, certificates or stored configuration, and after each deploy. The
// file lives under the current appName: one left under a former name is removed.
import { htpasswdEntry, htpasswdMatches } from '@berth/shared/crypto/htpasswd';
import type { Application } from '@berth/shared/domain/application/record';
import type { DeployerDeps } from '../deployer/deps.ts';
import { readProxyFile, removeProxyFile, writeProxyFile } from '@berth/shared/adapters/proxy-file';
import { ownerOf, proxyFileOf } from './generate.ts';

type ProxyDeps = Pick<DeployerDeps, 'records' | 'secrets' | 'settings'>;

export async function writeApplicationProxy(deps: ProxyDeps,
  app: Pick<Application, 'applicationId' | 'appName' | 'proxyConfig'>, formerAppNames: readonly string[] = []): Promise<string> {
  const dir = deps.settings.proxyDir;
  const former = await ownFiles(dir, app.applicationId, formerAppNames);
  // Removed first: two files defining the same routers would make the proxy drop both meanwhile.
  for (const { appName } of former) await removeProxyFile(dir, appName);
  const [ports, redirects, securities, certificates, current] = await Promise.all([
    deps.records.ports(app.applicationId), deps.records.redirects(app.applicationId),
    deps.records.securities(app.applicationId), deps.records.certificates(), readProxyFile(dir, app.appName),
  ]);
  const previous = current ?? former.at(-1)?.text ?? null;
  const text = proxyFileOf({
    applicationId: app.applicationId,
    appName: app.appName,
    formerAppNames,
    userConfig: app.proxyConfig,
    // The service is an HTTP load balancer: a UDP port cannot carry it.
    targetPort: ports.find((port) => port.protocol === 'tcp')?.targetPort ?? null,
    redirects,
    users: securities.map((user) => entryOf(previous, user.username, deps.secrets.open(user.password))),
    certificatePaths: certificates.map((certificate) => certificate.certificatePath),
    proxyDir: dir,
    previousFile: previous,
  });
  // The proxy reloads a file it sees change: one whose content is the same is left alone.
  if (text !== current) await writeProxyFile(dir, app.appName, text);
  return text;
}

/** Removes the files this application has under any of `appNames` (a deleted application's). */
export async function removeApplicationProxy(dir: string, applicationId: string, appNames: readonly string[]): Promise<void> {
  for (const { appName } of await ownFiles(dir, applicationId, appNames)) await removeProxyFile(dir, appName);
}

/**
 * The files under `appNames` that are this application's: a former name may belong to another
 * application by now, whose file stays. A file naming no application predates files naming theirs.
 */
async function ownFiles(dir: string, applicationId: string, appNames: readonly string[]) {
  const files = await Promise.all(appNames.map(async (appName) => ({ appName, text: await readProxyFile(dir, appName) })));
  return files.filter((file): file is { appName: string; text: string } =>
    file.text !== null && (ownerOf(file.text) ?? applicationId) === applicationId);
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
