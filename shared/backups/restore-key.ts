// Which object a restore loads: the key the caller gave, which must be one this backup wrote (in its
// folder, or the object of one of its successful runs, from before a change of its prefix), else
// the newest successful run's, chosen when the restore runs: a backup queued before it may prune
// the object that was the newest when the restore was asked.
import { isOwnKey, type RunPlan } from './plan.ts';

/** A run as its read model holds it: only what these rules read. */
interface RunRecord {
  readonly kind?: unknown;
  readonly status?: unknown;
  readonly key?: unknown;
  readonly startedAt?: unknown;
}

const succeeded = (run: RunRecord) => run.kind === 'backup' && run.status === 'done' && typeof run.key === 'string';

/** The object of the newest successful backup run among `runs`, or null. */
export function latestKey(runs: readonly RunRecord[]): string | null {
  const newest = runs.filter(succeeded).sort((a, b) => String(b.startedAt).localeCompare(String(a.startedAt)))[0];
  return newest ? String(newest.key) : null;
}

/** Whether `key` is an object this backup wrote: in its folder, or one of its successful runs'. */
export const isRestorable = (plan: RunPlan, runs: readonly RunRecord[], key: string): boolean =>
  isOwnKey(plan, key) || runs.some((run) => succeeded(run) && run.key === key);
