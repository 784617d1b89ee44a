// The two directions of a run, streamed end to end: dump → gzip → upload, and download →
// gunzip → restore. Nothing is held whole in memory; an upload that lost its dump is removed.
import { createGunzip, createGzip } from 'node:zlib';
import { pipeline } from 'node:stream/promises';
import type { ObjectStorage } from '../ports/object-storage.ts';
import type { TaskExec } from '../ports/task-exec.ts';
import { folderOf, scrubbed, type RunPlan } from './plan.ts';

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
  // The upload must not be left unobserved while the dump runs: a refused upload fails the run.
  upload.catch(() => undefined);
  let result;
  try {
    result = await exec.exec(plan.database.appName, plan.profile.dump(plan.backup.database), { stdout: gzip, ...(signal && { signal }) });
    mustSucceed(plan, 'The dump', result);
  } catch (error) {
    // Destroyed with an error, so the upload stops too (a plain destroy leaves it waiting for an end).
    gzip.destroy(error instanceof Error ? error : new Error(String(error)));
    await upload.catch(() => undefined);
    // An aborted upload leaves no object, and the destination may be what hangs: nothing to remove.
    if (!signal?.aborted) await storage.remove([key]).catch(() => undefined);
    throw error;
  }
  const { size } = await upload;
  return { size, log: [`dumped ${plan.backup.database} from ${plan.database.appName}`, `uploaded ${key} (${size} bytes)`] };
}

export async function bucketToRestore(plan: RunPlan, exec: TaskExec, storage: ObjectStorage, key: string, database: string, signal?: AbortSignal): Promise<Transfer> {
  let size = 0;
  const source = await storage.get(key, signal);
  source.on('data', (chunk: Buffer) => { size += chunk.length; });
  const gunzip = createGunzip();
  const feeding = pipeline(source, gunzip).catch((error: unknown) => error);
  const result = await exec.exec(plan.database.appName, plan.profile.restore(database), { stdin: gunzip, ...(signal && { signal }) });
  const fed = await feeding;
  if (fed instanceof Error && result.exitCode === 0) throw new Error(`Reading ${key} failed: ${fed.message}`);
  mustSucceed(plan, 'The restore', result);
  return { size, log: [`read ${key} (${size} bytes)`, `restored into ${database} of ${plan.database.appName}`] };
}

/** Removes all but the newest `keep` objects of the backup's folder; answers the keys removed. */
export async function prune(plan: RunPlan, storage: ObjectStorage, keep: number): Promise<string[]> {
  const suffix = `.${plan.profile.extension}.gz`;
  const objects = (await storage.list(folderOf(plan))).filter((object) => object.key.endsWith(suffix));
  const stale = objects.slice(0, Math.max(0, objects.length - keep)).map((object) => object.key);
  await storage.remove(stale);
  return stale;
}
