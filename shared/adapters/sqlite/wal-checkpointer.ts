// Copies a SQLite file's write-ahead log back into the file on a thread of its own. SQLite does it
// in the connection that commits, once the log passes 1,000 pages: that commit then writes a few
// megabytes and waits for the disk to sync them, and every request in the process waits with it
// (stalls of 10 ms to most of a second were measured under load). Here the writing connection
// only keeps a far larger bound as a backstop, and a worker's own connection checkpoints in
// PASSIVE mode, which never blocks the writer.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import { meansNoRoom } from './disk-full.ts';

/**
 * How often, at most, the worker checkpoints while commits keep coming. A page written by many
 * commits in between (the end of each index) is copied back once: at 1 s rather than 200 ms, the
 * commands cost 4-7 % less CPU in paired loads (bench:ab), the log growing to a few megabytes.
 */
const INTERVAL_MS = 1000;
/** The writer's own bound, reached only if the worker cannot keep up or is gone. */
const BACKSTOP_PAGES = 20_000;
const SQLITE_DEFAULT_PAGES = 1000;

// CommonJS, evaluated as the worker's script: it needs no loader, in the built process or under tsx.
// One thread serves every file of the process (the log and the read models): a thread of its own
// per file cost about 9 MB of resident memory each.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const connections = new Map();
parentPort.on('message', ({ id, path, close }) => {
  try {
    let db = connections.get(id);
    if (close) {
      connections.delete(id);
      db?.close();
    } else {
      if (!db) {
        db = new Database(path);
        db.pragma('busy_timeout = 5000');
        connections.set(id, db);
      }
      db.pragma('wal_checkpoint(PASSIVE)');
    }
    parentPort.postMessage({ id, error: null });
  } catch (error) { parentPort.postMessage({ id, error: String(error), code: error.code }); }
});`;

const driver = createRequire(import.meta.url).resolve('better-sqlite3');

/** Hands `db`'s checkpoints to the worker; null for a database in memory, which has no log. */
export function checkpointInWorker(db: Database.Database, path: string): WalCheckpointer | null {
  if (path === ':memory:' || path === '') return null;
  db.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
  return new WalCheckpointer(path, () => {
    if (db.open) db.pragma(`wal_autocheckpoint = ${SQLITE_DEFAULT_PAGES}`);
  });
}

/** The worker thread, shared by the files open in this process: made with the first checkpoint, ended with the last file. */
const shared = {
  worker: null as Worker | null,
  nextId: 1,
  /** Each open file's handler of the worker's answers (null: its checkpoint or close went well; `gone`: no more will come), by id. */
  files: new Map<number, (error: string | null, gone?: boolean, code?: string) => void>(),
  /** Files closing: the worker is held (referenced) while any is, so the process waits for their answers. */
  closing: 0,
};

function workerThread(): Worker {
  if (shared.worker) return shared.worker;
  const worker = new Worker(WORKER, { eval: true, workerData: { driver } });
  worker.unref();
  worker.on('message', ({ id, error, code }: { id: number; error: string | null; code?: string }) => shared.files.get(id)?.(error, false, code));
  const failed = (error: unknown) => {
    if (shared.worker !== worker) return;
    shared.worker = null;
    for (const answered of [...shared.files.values()]) answered(String(error), true);
  };
  worker.on('error', failed);
  worker.on('exit', () => failed('the checkpoint worker stopped'));
  return (shared.worker = worker);
}

export class WalCheckpointer {
  private readonly id = shared.nextId++;
  private running = false;
  private lastStarted = 0;
  private trailing: NodeJS.Timeout | null = null;
  /** Failed or closed: no more checkpoints on the worker. */
  private stopped = false;
  /** Commits came while a checkpoint ran: it may have missed them. */
  private behind = false;
  /** Messages posted to the worker and not answered yet. */
  private unanswered = 0;
  /** Called once every message, the close last, is answered. */
  private closed: (() => void) | null = null;

  constructor(
    private readonly path: string,
    /** Called once if the worker fails: the writer then checkpoints as SQLite does by default. */
    private readonly onFailure: () => void,
  ) {
    shared.files.set(this.id, (error, gone, code) => this.answered(error, gone, code));
  }

  /** After a commit: checkpoint soon, on the worker's thread. */
  committed(): void {
    if (this.stopped || this.trailing) return;
    if (this.running) {
      // The checkpoint under way may have started before this commit: one more follows it.
      this.behind = true;
      return;
    }
    const wait = this.lastStarted + INTERVAL_MS - Date.now();
    if (wait > 0) {
      // The last commits of a burst are checkpointed too, once the interval has passed.
      this.trailing = setTimeout(() => { this.trailing = null; this.start(); }, wait).unref();
      return;
    }
    this.start();
  }

  private start(): void {
    if (this.stopped) return;
    this.running = true;
    this.lastStarted = Date.now();
    this.unanswered++;
    workerThread().postMessage({ id: this.id, path: this.path });
  }

  private answered(error: string | null, gone = false, code?: string): void {
    this.running = false;
    this.unanswered = gone ? 0 : this.unanswered - 1;
    if (this.closed) return void (this.unanswered === 0 && this.closed());
    // A full disk is no fault of the worker: the next commit tries again, and once there is room
    // the checkpoints go on here (giving them up would stall commits until a restart).
    if (error !== null && !meansNoRoom(code, this.path)) return this.fail();
    if (this.behind) {
      this.behind = false;
      this.committed();
    }
  }

  private fail(): void {
    if (this.stopped) return;
    this.stopped = true;
    shared.files.delete(this.id);
    this.onFailure();
  }

  /** Closes the worker's connection to the file, after the checkpoint it may be doing; the last file ends the worker. */
  async close(): Promise<void> {
    if (this.trailing) clearTimeout(this.trailing);
    const worker = this.stopped ? null : shared.worker;
    this.stopped = true;
    if (worker) {
      // Held while it answers: an unreferenced worker would let the process end before it did.
      if (shared.closing++ === 0) worker.ref();
      await Promise.race([
        new Promise<void>((resolve) => {
          this.closed = resolve;
          this.unanswered++;
          worker.postMessage({ id: this.id, close: true });
        }),
        new Promise((resolve) => setTimeout(resolve, 5000).unref()),
      ]);
      if (--shared.closing === 0) worker.unref();
    }
    shared.files.delete(this.id);
    if (shared.files.size === 0 && shared.worker) {
      const last = shared.worker;
      shared.worker = null;
      await last.terminate();
    }
  }
}
