// The two directions of a run, streamed end to end: dump → gzip → upload, and download →
// gunzip → restore. Nothing is held whole in memory; an upload that lost its dump is removed.
import { createGunzip, createGzip } from 'node:zlib';
import { pipeline } from 'node:stream/promises';
import type { ObjectStorage } from '../ports/object-storage.ts';
import type { MarkedService, TaskExec } from '../ports/task-exec.ts';
import { databaseMark } from '../domain/database/service-spec.ts';
import { folderOf, isOwnKey, scrubbed, type RunPlan } from './plan.ts';
import { messageOf } from '../errors.ts';

/** The database's own service: a service of its name Berth did not make for it is not dumped nor restored into. */
const serviceOf = (plan: RunPlan): MarkedService => ({ name: plan.database.appName, mark: databaseMark(plan.engine, plan.database) });

export interface Transfer {
  readonly size: number;
  readonly log: string[];
}

/** Fails with the command's own words (secrets blotted out) when it exits non-zero. */
function mustSucceed(plan: RunPlan, what: string, result: { exitCode: number; stderr: string }): void {
  if (result.exitCode === 0) return;
  const said = scrubbed(plan, result.stderr.trim().split('\n').slice(-3).join(' | '));
  throw new Error(`${what} exited with code ${result.exitCode}${said ? `: ${said}` : ''}`);
}

export async function dumpToBucket(plan: RunPlan, exec: TaskExec, storage: ObjectStorage, key: string, signal?: AbortSignal): Promise<Transfer> {
  const gzip = createGzip({ level: 1 });
  const upload = storage.put(key, gzip, signal);
  // A refused upload stops reading, and the dump would wait on its full pipe for good: the
  // upload's failure ends the dump (the engine destroys the exec's stream on abort), and is the
  // run's reason; raced too, so the run ends with it even if an exec were slow to stop.
  const uploadFailed = new AbortController();
  const refused = upload.then(() => new Promise<never>(() => {}), (error: unknown) => {
    uploadFailed.abort(error);
    throw error;
  });
  const stop = signal ? AbortSignal.any([signal, uploadFailed.signal]) : uploadFailed.signal;
  try {
    const dumping = exec.exec(serviceOf(plan), plan.profile.dump(plan.backup.database), { stdout: gzip, signal: stop });
    mustSucceed(plan, 'The dump', await Promise.race([dumping, refused]));
  } catch (error) {
    const reason: unknown = uploadFailed.signal.aborted ? uploadFailed.signal.reason : error;
    // Destroyed with an error, so the upload stops too (a plain destroy leaves it waiting for an end).
    gzip.destroy(reason instanceof Error ? reason : new Error(String(reason)));
    await upload.catch(() => undefined);
    // An aborted upload leaves no object, and the destination may be what hangs: nothing to remove.
    if (!signal?.aborted) await storage.remove([key]).catch(() => undefined);
    throw reason;
  }
  const { size } = await upload;
  return { size, log: [`dumped ${plan.backup.database} from ${plan.database.appName}`, `uploaded ${key} (${size} bytes)`] };
}

export async function bucketToRestore(plan: RunPlan, exec: TaskExec, storage: ObjectStorage, key: string, database: string, signal?: AbortSignal): Promise<Transfer> {
  let size = 0;
  const source = await storage.get(key, signal);
  source.on('data', (chunk: Buffer) => { size += chunk.length; });
  const gunzip = createGunzip();
  let stopped = false;
  // Why the download failed; null when it did not, or was stopped because the tool had ended.
  const readFailure = pipeline(source, gunzip).then(
    () => null,
    (error: unknown) => (stopped ? null : messageOf(error)),
  );
  const result = await exec.exec(serviceOf(plan), plan.profile.restore(database), { stdin: gunzip, ...(signal && { signal }) })
    .finally(() => {
      // A tool that ended reads no more: the rest of the download is dropped, not waited for.
      stopped = true;
      source.destroy();
      gunzip.destroy();
    });
  const failed = await readFailure;
  if (failed !== null && result.exitCode === 0) throw new Error(`Reading ${key} failed: ${failed}`);
  mustSucceed(plan, 'The restore', result);
  return { size, log: [`read ${key} (${size} bytes)`, `restored into ${database} of ${plan.database.appName}`] };
}

/** Of `keys`, the backup's own but the newest `keep` (by the timestamp in their names). */
export function staleKeys(plan: RunPlan, keys: readonly string[], keep: number): string[] {
  // Own keys differ only in their fixed-width timestamps: their order is the order of those.
  const own = keys.filter((key) => isOwnKey(plan, key)).sort();
  return own.slice(0, Math.max(0, own.length - keep));
}

/** Removes all but the newest `keep` objects the backup wrote; answers the keys removed. */
export async function prune(plan: RunPlan, storage: ObjectStorage, keep: number): Promise<string[]> {
  const stale = staleKeys(plan, (await storage.list(folderOf(plan))).map((object) => object.key), keep);
  await storage.remove(stale);
  return stale;
}
