// Keeps the proxy's files in step with the log: an application's file is rewritten whenever its
// stored configuration, ports, redirects or security users change; every file when a certificate
// comes or goes (with the certificate's own files); removed with the application.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { removeProxyFile } from '@berth/shared/adapters/proxy-file';
import type { Application } from '@berth/shared/domain/application/record';
import type { Certificate } from '@berth/shared/domain/certificate/certificate';
import type { RecordedEvent } from '@berth/shared/events/event';
import type { Infrastructure } from '@berth/shared/runtime/infrastructure';
import { deployerDepsOf } from '../deployer/deps.ts';
import type { Reactor } from '../runtime/reactor.ts';
import { writeApplicationProxy } from './write.ts';

const CHILD = /^(Port|Redirect|Security)(Created|Updated|Removed)$/;
/** How long the writer waits for the read models to include the event it reacts to. */
const READ_WAIT_MS = 10_000;

export function proxyReactor(infra: Infrastructure): Reactor {
  const deps = deployerDepsOf(infra);
  const dir = infra.config.proxyDir;

  /** The last value `field` took in the event's stream: a child's applicationId, an appName, a folder. */
  const lastValue = async (event: RecordedEvent, field: string) => {
    const values = (await infra.eventStore.readStream(event.stream)).events
      .map((recorded) => (recorded.data as Record<string, unknown>)[field]).filter((value) => typeof value === 'string');
    return String(values.at(-1));
  };

  // Events of different streams are handled at once: one application's rewrites queue up, and
  // each reads the records when its turn comes, so the last write holds the latest state.
  const queues = new Map<string, Promise<unknown>>();
  const rewriteOne = (applicationId: string) => {
    const next = (queues.get(applicationId) ?? Promise.resolve()).catch(() => {}).then(async () => {
      const app = (await infra.readStore.get('application', applicationId)) as Application | null;
      if (app) await writeApplicationProxy(deps, app);
    });
    queues.set(applicationId, next);
    void next.catch(() => {}).finally(() => { if (queues.get(applicationId) === next) queues.delete(applicationId); });
    return next;
  };
  const rewrite = async (applicationIds: readonly string[]) => {
    for (const applicationId of applicationIds) await rewriteOne(applicationId);
  };

  const certificateFiles = async (event: RecordedEvent) => {
    const folder = join(dir, await lastValue(event, 'certificatePath'));
    if (event.type === 'CertificateRemoved') return rm(folder, { recursive: true, force: true });
    const certificate = event.data as Certificate;
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, 'chain.crt'), certificate.certificateData);
    await writeFile(join(folder, 'privkey.key'), infra.secrets.open(certificate.privateKey), { mode: 0o600 });
  };

  return {
    name: 'proxy-files',
    async handle(event) {
      const data = event.data as Record<string, unknown>;
      let applicationIds: string[];
      if (event.type === 'ApplicationDeleted') return removeProxyFile(dir, await lastValue(event, 'appName'));
      if (event.type === 'ApplicationProxyConfigUpdated') applicationIds = [String(data.applicationId)];
      else if (CHILD.test(event.type)) applicationIds = [await lastValue(event, 'applicationId')];
      else if (event.type === 'CertificateCreated' || event.type === 'CertificateRemoved') {
        await certificateFiles(event);
        applicationIds = (await infra.readStore.all('application')).map((app) => String(app.applicationId));
      } else return;
      await infra.readStore.waitFor(event.position, READ_WAIT_MS);
      await rewrite(applicationIds);
    },
  };
}
