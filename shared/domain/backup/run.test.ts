import { describe, it } from 'node:test';
import { specOf } from '../testing.ts';
import { backupRunAggregate, scheduledRunId } from './run.ts';

const spec = specOf(backupRunAggregate);
const started = {
  runId: 'r1', backupId: 'b1', kind: 'backup', trigger: 'schedule', key: 'nightly/2026-01-01T00:00:00.000Z.dump.gz',
  databaseType: 'dbgamma', databaseId: 'g1', startedAt: '2026-01-01T00:00:00.000Z',
} as const;
const ended = { runId: 'r1', finishedAt: '2026-01-01T00:00:05.000Z', size: 1234, log: ['uploaded'] };

describe('backup run decider', () => {
  it('starts a run once: a second start of the same tick is a conflict (the claim)', () => {
    spec.given([]).when({ type: 'StartBackupRun', data: started }).then([{ type: 'BackupRunStarted', data: started }]);
    spec.given([{ type: 'BackupRunStarted', data: started }]).when({ type: 'StartBackupRun', data: started }).thenFails('CONFLICT', 'runId');
  });
  it('ends a running run with its outcome, once', () => {
    const running = [{ type: 'BackupRunStarted', data: started }] as const;
    spec.given(running).when({ type: 'SucceedBackupRun', data: ended }).then([{ type: 'BackupRunSucceeded', data: ended }]);
    const failed = { ...ended, size: null, error: 'database is not running' };
    spec.given(running).when({ type: 'FailBackupRun', data: failed }).then([{ type: 'BackupRunFailed', data: failed }]);
    spec.given([...running, { type: 'BackupRunSucceeded', data: ended }]).when({ type: 'FailBackupRun', data: failed }).thenFails('CONFLICT', 'runId');
  });
  it('prunes an ended run once; one under way, or gone already, is left alone', () => {
    const prune = { type: 'PruneBackupRun', data: { runId: 'r1' } } as const;
    const done = [{ type: 'BackupRunStarted', data: started }, { type: 'BackupRunSucceeded', data: ended }] as const;
    spec.given(done).when(prune).then([{ type: 'BackupRunPruned', data: { runId: 'r1' } }]);
    spec.given([{ type: 'BackupRunStarted', data: started }]).when(prune).then([]);
    spec.given([...done, { type: 'BackupRunPruned', data: { runId: 'r1' } }]).when(prune).then([]);
    spec.given([]).when(prune).then([]);
  });
  it('names a scheduled run after its backup and tick, the same in every process', () => {
    const tick = new Date('2026-01-01T00:00:05.000Z');
    if (scheduledRunId('b1', tick) !== scheduledRunId('b1', new Date(tick))) throw new Error('not stable');
  });
});
