// The proxy folder brought in line with the records when the writer starts. The bus hands the
// writer only events after the relay's checkpoint: a configuration saved before the writer existed
// (an upgrade), or a folder moved, emptied or restored without its files, would otherwise stay as
// it is until the application's next change. One pass, through the writer's own code paths.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Infrastructure } from '@berth/shared/runtime/infrastructure';
import { ownerOf } from './generate.ts';
import { readModelsCaughtUp } from '../runtime/caught-up.ts';
import { messageOf } from '@berth/shared/errors';

const FILE = /^(.+)\.yml$/;

export interface Writer {
  /** Writes the application's file as a change to it would. */
  rewrite(applicationId: string): Promise<void>;
  /** Removes the file `appName` when it is still that (deleted) application's. */
  removeOrphan(applicationId: string, appName: string): Promise<void>;
  /** Writes or removes the certificate's files as its events would. */
  certificateFiles(certificateId: string): Promise<void>;
}

/** The files Berth wrote for an application (their first line names it), by the application's id. */
async function ownedFiles(dir: string): Promise<{ appName: string; owner: string }[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  const owned: { appName: string; owner: string }[] = [];
  for (const entry of entries) {
    const appName = FILE.exec(entry.name)?.[1];
    if (!entry.isFile() || appName === undefined) continue;
    // Only the first line is needed, but the files are small.
    const owner = ownerOf(await readFile(join(dir, entry.name), 'utf8').catch(() => ''));
    if (owner !== null) owned.push({ appName, owner });
  }
  return owned;
}

/**
 * Every certificate's files and every application's file written again (each write leaves a file
 * whose content is the same alone), and the files of applications that no longer exist removed.
 * Only a file whose first line names an application, which only Berth writes, is ever removed; a
 * certificate's folder is kept (its path is the user's to choose, nothing in it proves who wrote it).
 * Failures of single items do not stop the pass; they are said together in the answer.
 */
export async function reconcileProxyFolder(infra: Infrastructure, writer: Writer, signal: AbortSignal): Promise<string[]> {
  const { eventStore, readStore } = infra;
  if (signal.aborted) return [];
  // A read model behind the log would not hold a new application yet: its file must not look orphaned.
  // A stop does not wait out that bound.
  const stopped = new Promise<false>((resolve) => signal.addEventListener('abort', () => resolve(false), { once: true }));
  const caughtUp = await Promise.race([readModelsCaughtUp({ eventStore, readStore }), stopped]);
  if (signal.aborted) return [];
  const failures: string[] = [];
  /** `what` is left out where the error names its item already. */
  const attempt = async (what: string | null, work: () => Promise<void>) => {
    if (signal.aborted) return;
    await work().catch((error: unknown) => {
      const message = messageOf(error);
      failures.push(what === null ? message : `${what}: ${message}`);
    });
  };
  // Certificates first: the applications' files name their files.
  for (const certificate of await readStore.all('certificate')) {
    await attempt(`certificate ${String(certificate.certificateId)}`, () => writer.certificateFiles(String(certificate.certificateId)));
  }
  const applicationIds = new Set((await readStore.all('application')).map((app) => String(app.applicationId)));
  if (!caughtUp) failures.push('the read models did not catch up with the log: no file was removed');
  else {
    for (const { appName, owner } of await ownedFiles(infra.config.proxyDir)) {
      if (!applicationIds.has(owner)) await attempt(`file ${appName}.yml`, () => writer.removeOrphan(owner, appName));
    }
  }
  for (const applicationId of applicationIds) await attempt(null, () => writer.rewrite(applicationId));
  return failures;
}
