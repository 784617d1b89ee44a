// One run of a backup (a dump uploaded) or of a restore (a dump loaded back), recorded from start
// to outcome. A scheduled run's id is derived from its backup and tick, so starting it is also the
// claim on that tick: of several processes firing the same tick, one appends, the others conflict.
import { conflict } from '../../errors.ts';
import type { Aggregate } from '../aggregate.ts';
import { exhaustive } from '../aggregate.ts';
import { mustExist, mustNotExist } from '../decisions.ts';

export type RunKind = 'backup' | 'restore';
export type RunTrigger = 'schedule' | 'manual';
export type RunStatus = 'running' | 'done' | 'error';

export interface BackupRun {
  runId: string;
  backupId: string;
  kind: RunKind;
  trigger: RunTrigger;
  /** The object written (backup) or read (restore): `<prefix>/<ISO timestamp>.<ext>.gz`. */
  key: string;
  /** The database service the dump came from (backup) or went into (restore), as `<engine>Id`. */
  databaseType: string;
  databaseId: string;
  status: RunStatus;
  startedAt: string;
  finishedAt: string | null;
  /** Compressed bytes uploaded or read. */
  size: number | null;
  /** Why it failed, in words; never a password or key. */
  error: string | null;
  /** What the run did, a line per step. */
  log: string[];
}

type Started = Omit<BackupRun, 'status' | 'finishedAt' | 'size' | 'error' | 'log'>;
type Ended = { runId: string; finishedAt: string; size: number | null; log: string[] };
type Id = { runId: string };

export type BackupRunCommand =
  | { type: 'StartBackupRun'; data: Started }
  | { type: 'SucceedBackupRun'; data: Ended }
  | { type: 'FailBackupRun'; data: Ended & { error: string } }
  | { type: 'PruneBackupRun'; data: Id };

export type BackupRunEvent =
  | { type: 'BackupRunStarted'; data: Started }
  | { type: 'BackupRunSucceeded'; data: Ended }
  | { type: 'BackupRunFailed'; data: Ended & { error: string } }
  /** The record is history no one keeps any longer (see run-bound.ts): the log keeps it, the read model forgets it. */
  | { type: 'BackupRunPruned'; data: Id };

const LABEL = 'Backup run';

/** The id of the run a schedule fires at `tick`: the same in every process. */
export const scheduledRunId = (backupId: string, tick: Date) => `${backupId}.${tick.getTime()}`;

function mustBeRunning(state: BackupRun | null): BackupRun {
  const run = mustExist(state, 'runId', LABEL);
  if (run.status !== 'running') throw conflict(`names a run that already ended (${run.status})`, 'runId');
  return run;
}

export const backupRunAggregate: Aggregate<BackupRun, BackupRunCommand, BackupRunEvent> = {
  name: 'backuprun',
  idField: 'runId',
  label: LABEL,
  evolve(state, event) {
    switch (event.type) {
      case 'BackupRunStarted': return { ...event.data, status: 'running', finishedAt: null, size: null, error: null, log: [] };
      case 'BackupRunSucceeded': return state && { ...state, ...event.data, status: 'done' };
      case 'BackupRunFailed': return state && { ...state, ...event.data, status: 'error' };
      case 'BackupRunPruned': return null;
      default: return exhaustive(event);
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'StartBackupRun':
        mustNotExist(state, LABEL, 'runId');
        return [{ type: 'BackupRunStarted', data: command.data }];
      case 'SucceedBackupRun':
        mustBeRunning(state);
        return [{ type: 'BackupRunSucceeded', data: command.data }];
      case 'FailBackupRun':
        mustBeRunning(state);
        return [{ type: 'BackupRunFailed', data: command.data }];
      case 'PruneBackupRun':
        // Gone already (another process pruned it) or still under way: nothing to do, no error,
        // so concurrent pruners and re-deliveries agree.
        return state && state.status !== 'running' ? [{ type: 'BackupRunPruned', data: command.data }] : [];
      default: return exhaustive(command);
    }
  },
};
