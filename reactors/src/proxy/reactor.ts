// Keeps the proxy's files in step with the log: an application's file is rewritten whenever its
// appName, stored configuration, ports, redirects or security users change and after each of its
// deploys; every file when a certificate comes or goes (with the certificate's own files);
// removed with the application, under every name it had. At start, the whole folder is brought in
// line with the records once (reconcile.ts), in the background.
import type { Application } from '@berth/shared/domain/application/record';
import { certificateAggregate, type Certificate } from '@berth/shared/domain/certificate/certificate';
import { streamName, type RecordedEvent } from '@berth/shared/events/event';
import type { Infrastructure } from '@berth/shared/runtime/infrastructure';
import { load } from '@berth/shared/runtime/execute';
import { deployerDepsOf } from '../deployer/deps.ts';
import type { Reactor } from '../runtime/reactor.ts';
import { removeCertificateFiles, writeCertificateFiles } from './certificate-files.ts';
import { reconcileProxyFolder } from './reconcile.ts';
import { removeApplicationProxy, writeApplicationProxy } from './write.ts';
import { messageOf } from '@berth/shared/errors';

const CHILD = /^(Port|Redirect|Security)(Created|Updated|Removed)$/;
/** How long the writer waits for the read models to include the event it reacts to. */
const READ_WAIT_MS = 10_000;

export function proxyReactor(infra: Infrastructure): Reactor {
  const deps = deployerDepsOf(infra);
  const dir = infra.config.proxyDir;

  /** The string values `field` took in a stream, oldest first. */
  const valuesOf = async (stream: string, field: string) => (await infra.eventStore.readStream(stream)).events
    .map((recorded) => (recorded.data as Record<string, unknown>)[field]).filter((value) => typeof value === 'string');
  /** The last value `field` took in the event's stream: a child's or a deployment's applicationId, a folder. */
  const lastValue = async (event: RecordedEvent, field: string) => (await valuesOf(event.stream, field)).at(-1) ?? null;
  /** Every appName the application had, oldest first. */
  const appNamesOf = async (applicationId: string) => [...new Set(await valuesOf(streamName('application', applicationId), 'appName'))];

  // One writer per application: events of different streams are handled at once, so an
  // application's writes queue up, and each reads the records when its turn comes: the last
  // write holds the latest state (a deploy's too, which reads nothing from the deploy's start).
  const queues = new Map<string, Promise<unknown>>();
  const queued = (applicationId: string, work: () => Promise<void>) => {
    const next = (queues.get(applicationId) ?? Promise.resolve()).catch(() => {}).then(work);
    queues.set(applicationId, next);
    void next.catch(() => {}).finally(() => { if (queues.get(applicationId) === next) queues.delete(applicationId); });
    return next;
  };
  /** Every application's file, each on its own: one that cannot be written holds none of the others back. */
  const rewrite = async (applicationIds: readonly string[]) => {
    const failures: string[] = [];
    for (const applicationId of applicationIds) {
      await queued(applicationId, async () => {
        const app = (await infra.readStore.get('application', applicationId)) as Application | null;
        if (!app) return;
        const formerAppNames = (await appNamesOf(applicationId)).filter((name) => name !== app.appName);
        await writeApplicationProxy(deps, app, formerAppNames);
      }).catch((error: unknown) => failures.push(`application ${applicationId}: ${messageOf(error)}`));
    }
    // Failed at the end, so the event comes back and the ones that failed are tried again.
    if (failures.length > 0) throw new Error(`could not write the proxy files of ${failures.join('; ')}`);
  };
  const remove = (applicationId: string) =>
    queued(applicationId, async () => removeApplicationProxy(dir, applicationId, await appNamesOf(applicationId)));

  /**
   * The certificate's files as the log has them now, not as the event says: a failed event comes
   * back after later ones of its stream, and a creation retried after the removal must not write
   * the removed key back. A removed certificate's files go, unless another certificate's folder is the same.
   * Queued per certificate, so the start's pass and an event's handling cannot cross.
   */
  const certificateFiles = (certificateId: string) => queued(`certificate ${certificateId}`, async () => {
    const certificate = (await load(infra.eventStore, certificateAggregate, certificateId)).state as Certificate | null;
    if (certificate) {
      return writeCertificateFiles(dir, certificate.certificatePath, certificate.certificateData, infra.secrets.open(certificate.privateKey));
    }
    const path = (await valuesOf(streamName('certificate', certificateId), 'certificatePath')).at(-1);
    if (path === undefined) return;
    const sharing = (await infra.readStore.find('certificate', 'certificatePath', path))
      .filter((other) => other.certificateId !== certificateId); // the read model may not hold the removal yet
    if (sharing.length === 0) await removeCertificateFiles(dir, path);
  });

  // The start's pass, ended by a stop, which waits for it: no file is written after the reactor stopped.
  const stopping = new AbortController();
  let reconciling: Promise<void> = Promise.resolve();

  /** The applications whose files the event changes. */
  const applicationsOf = async (event: RecordedEvent): Promise<string[]> => {
    const data = event.data as Record<string, unknown>;
    if (event.type === 'ApplicationProxyConfigUpdated') return [String(data.applicationId)];
    if (event.type === 'ApplicationUpdated') return typeof data.appName === 'string' ? [String(data.applicationId)] : [];
    if (CHILD.test(event.type) || event.type === 'DeploymentFinished') {
      const applicationId = await lastValue(event, 'applicationId'); // none for a compose service's or a database's
      return applicationId === null ? [] : [applicationId];
    }
    return [];
  };

  return {
    name: 'proxy-files',
    async start() {
      // Not awaited: the other reactors start meanwhile, and events are handled meanwhile (queued per application).
      reconciling = reconcileProxyFolder(infra, {
        rewrite: (applicationId) => rewrite([applicationId]),
        // Only while the application is still missing from the records: the list was read before, and
        // a file written since is one of an application created since.
        removeOrphan: (applicationId, appName) => queued(applicationId, async () => {
          if (!(await infra.readStore.get('application', applicationId))) await removeApplicationProxy(dir, applicationId, [appName]);
        }),
        certificateFiles,
      }, stopping.signal).then((failures) => {
        if (failures.length > 0) console.error(`proxy-files: the folder was not wholly reconciled at start: ${failures.join('; ')}`);
      }, (error: unknown) => console.error('proxy-files: the folder was not reconciled at start:', error instanceof Error ? error.message : error));
    },
    async stop() {
      stopping.abort();
      await reconciling;
    },
    async handle(event) {
      // Every write reads the records after its event, so a rewrite queued after a removal finds none.
      const caughtUp = () => infra.readStore.waitFor(event.position, READ_WAIT_MS);
      if (event.type === 'ApplicationDeleted') {
        await caughtUp();
        return remove(String((event.data as { applicationId: string }).applicationId));
      }
      if (event.type === 'CertificateCreated' || event.type === 'CertificateRemoved') {
        await caughtUp();
        await certificateFiles(String((event.data as { certificateId: string }).certificateId));
        return rewrite((await infra.readStore.all('application')).map((app) => String(app.applicationId)));
      }
      const applicationIds = await applicationsOf(event);
      if (applicationIds.length === 0) return;
      await caughtUp();
      await rewrite(applicationIds);
    },
  };
}
