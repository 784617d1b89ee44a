// Stand-ins for the tests of backup runs: a plan, a bucket in memory, and an exec that behaves as the
// engine's does (writes wait for drain, an aborted signal ends it with an error) without an engine.
import { Readable, type Writable } from 'node:stream';
import type { Backup } from '../domain/backup/backup.ts';
import type { Database } from '../domain/database/database.ts';
import { profileOf } from '../domain/database/profile.ts';
import type { ObjectStorage } from '../ports/object-storage.ts';
import type { ExecIo, ExecResult, MarkedService, TaskExec } from '../ports/task-exec.ts';
import type { RunPlan } from './plan.ts';

export function testPlan(backup: Partial<Backup> = {}, databaseName = 'main'): RunPlan {
  return {
    backup: {
      backupId: 'b1', schedule: '0 3 * * *', enabled: true, prefix: 'nightly', destinationId: 'd1', database: 'app',
      databaseType: 'dbgamma', dbalphaId: null, dbbetaId: null, dbgammaId: 'g1', dbdeltaId: null, dbepsilonId: null,
      createdAt: '2026-01-01T00:00:00.000Z', keepLatest: null, ...backup,
    },
    engine: 'dbgamma',
    profile: profileOf('dbgamma', null),
    database: { appName: 'pg', databaseName } as Database,
    databaseId: 'g1',
    bucket: { endpoint: 'http://127.0.0.1:1', region: 'us-east-1', bucket: 'b', accessKey: 'AK', secretAccessKey: 'SK123456' },
    secrets: [],
  };
}

export type MemoryStorage = ObjectStorage & { readonly keys: Set<string> };

/** A bucket in memory; `refuseRemove` answers as write-only credentials do. */
export function memoryStorage(keys: readonly string[] = [], options: { refuseRemove?: boolean } = {}): MemoryStorage {
  const held = new Set(keys);
  return {
    keys: held,
    async check() {},
    async put(key, body) {
      let size = 0;
      for await (const chunk of body) size += (chunk as Buffer).length;
      held.add(key);
      return { size };
    },
    async get() { return Readable.from([]); },
    async list(prefix) {
      return [...held].filter((key) => key.startsWith(prefix)).sort().map((key) => ({ key, size: 1, lastModified: '' }));
    },
    async remove(removed) {
      if (options.refuseRemove && removed.length > 0) throw new Error('Could not remove: AccessDenied (HTTP 403)');
      for (const key of removed) held.delete(key);
    },
  };
}

/** Ends with an error when `signal` aborts, as the engine's exec does (it destroys its stream). */
function cancelled(signal: AbortSignal | undefined): Promise<never> {
  return new Promise((_resolve, reject) => {
    if (signal?.aborted) reject(new Error('cancelled'));
    signal?.addEventListener('abort', () => reject(new Error('cancelled')), { once: true });
  });
}

/** Waits for drain after a refused write, as the engine's exec does: a stuck reader stops the writer. */
async function write(stdout: Writable, chunk: Buffer): Promise<void> {
  if (!stdout.write(chunk)) await new Promise((resolve) => stdout.once('drain', resolve));
}

/** An exec whose command writes `chunks` to its standard output, then exits with `exitCode`. */
export function dumpingExec(chunks: () => Iterable<Buffer>, exitCode = 0): TaskExec & { calls: number; ended: boolean } {
  const exec = {
    calls: 0,
    /** Whether the command has ended (exited, or stopped by the signal). */
    ended: false,
    async exec(_service: MarkedService, _command: readonly string[], io: ExecIo): Promise<ExecResult> {
      exec.calls += 1;
      const run = async () => {
        for (const chunk of chunks()) await write(io.stdout!, chunk);
        return { exitCode, stderr: exitCode === 0 ? '' : 'pg_dump: error: failed' };
      };
      try {
        return await Promise.race([run(), cancelled(io.signal)]);
      } finally {
        exec.ended = true;
        io.stdout?.end();
      }
    },
  };
  return exec;
}

/** An exec whose command reads `bytes` of its standard input, then quits with `exitCode`, reading no more. */
export function quittingExec(bytes: number, exitCode: number, stderr: string): TaskExec {
  return {
    async exec(_service, _command, io) {
      const stdin = io.stdin!;
      let read = 0;
      // Stops reading without destroying the input, as a process that exits leaves the engine's stream.
      await new Promise<void>((resolve) => {
        const take = (chunk: Buffer) => {
          read += chunk.length;
          if (read < bytes) return;
          stdin.off('data', take);
          stdin.pause();
          resolve();
        };
        stdin.on('data', take);
        stdin.once('end', resolve);
      });
      return { exitCode, stderr };
    },
  };
}
