import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { BackupRun, BackupRunCommand } from '../domain/backup/run.ts';
import { runBackup } from './run.ts';
import { dumpingExec, memoryStorage, testPlan } from './testing.ts';

describe('a backup run', () => {
  it('is done, with its size, when the dump is uploaded but keepLatest cannot prune (write-only keys): the log says why', async () => {
    const older = 'p/2020-01-01T00:00:00.000Z.dump.gz';
    const storage = memoryStorage([older], { refuseRemove: true });
    const recorded: BackupRunCommand[] = [];
    const deps = {
      exec: dumpingExec(() => [Buffer.from('a dump')]),
      objectStorage: async () => storage,
      now: () => new Date('2026-01-05T00:00:01.000Z'),
      record: async (command: BackupRunCommand) => { recorded.push(command); return command.data as unknown as BackupRun; },
    };
    await runBackup(testPlan({ prefix: 'p', keepLatest: 1 }), deps, 'r1', 'manual', new Date('2026-01-05T00:00:00.000Z'));
    const outcome = recorded.at(-1)!;
    assert.equal(outcome.type, 'SucceedBackupRun');
    assert.ok((outcome.data.size ?? 0) > 0);
    assert.match(outcome.data.log.at(-1)!, /keeping only the latest 1 failed: .*AccessDenied/);
    assert.deepEqual([...storage.keys].sort(), [older, 'p/2026-01-05T00:00:00.000Z.dump.gz']);
  });
});
