// How many run records a backup keeps: a run is history an operator reads (what ran, why it failed),
// but a backup every few minutes would otherwise pile up records for ever, and `backup.runs`
// answers them all. So, as with deployments, only the newest finished ones are kept.
import type { BackupRun } from './run.ts';

type Ranked = Pick<BackupRun, 'runId' | 'status' | 'finishedAt'>;

/**
 * The finished runs beyond the newest `keep` (0: every finished one, as when the backup is gone).
 * A run under way is never among them. Newest means the latest to end: the run whose end asked
 * for this is always kept (keep is at least 1), though another that began later ended before it,
 * so its caller, waiting for that end, still finds its record.
 */
export function runsToPrune<R extends Ranked>(runs: readonly R[], keep: number): R[] {
  const finished = runs.filter((run) => run.status !== 'running')
    .sort((a, b) => String(b.finishedAt).localeCompare(String(a.finishedAt)) || b.runId.localeCompare(a.runId));
  return finished.slice(keep);
}
