// Copies a SQLite file's write-ahead log back into the file on a thread of its own. SQLite does it
// in the connection that commits, once the log passes 1,000 pages: that commit then writes a few
// megabytes and waits for the disk to sync them, and every request in the process waits with it
// (stalls of 10 ms to most of a second were measured under load). Here the writing connection
// only keeps a far larger bound as a backstop, and a worker's own connection checkpoints in
// PASSIVE mode, which never blocks the writer.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';

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
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path);
db.pragma('busy_timeout = 5000');
parentPort.on('message', (message) => {
  if (message === 'close') { db.close(); process.exit(0); }
  try { db.pragma('wal_checkpoint(PASSIVE)'); parentPort.postMessage(null); }
  catch (error) { parentPort.postMessage(String(error)); }
});`;

const driver = createRequire(import.meta.url).resolve('better-sqlite3');

/** Hands `db`'s checkpoints to a worker; null for a database in memory, which has no log. */
export function checkpointInWorker(db: Database.Database, path: string): WalCheckpointer | null {
  if (path === ':memory:' || path === '') return null;
  db.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
  return new WalCheckpointer(path, () => {
    if (db.open) db.pragma(`wal_autocheckpoint = ${SQLITE_DEFAULT_PAGES}`);
  });
}

export class WalCheckpointer {
  private worker: Worker | null = null;
  private running = false;
  private lastStarted = 0;
  private trailing: NodeJS.Timeout | null = null;
  /** Failed or closed: no more checkpoints on the worker. */
  private stopped = false;
  /** Commits came while a checkpoint ran: it may have missed them. */
  private behind = false;

  constructor(
    private readonly path: string,
    /** Called once if the worker fails: the writer then checkpoints as SQLite does by default. */
    private readonly onFailure: () => void,
  ) {}

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
    this.running = true;
    this.lastStarted = Date.now();
    this.workerThread().postMessage('checkpoint');
  }

  private workerThread(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(WORKER, { eval: true, workerData: { driver, path: this.path } });
    worker.unref();
    worker.on('message', (error: string | null) => {
      this.running = false;
      if (error !== null) return this.fail();
      if (this.behind) {
        this.behind = false;
        this.committed();
      }
    });
    worker.on('error', () => this.fail());
    return (this.worker = worker);
  }

  private fail(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.onFailure();
    void this.worker?.terminate();
  }

  /** Ends the worker, after the checkpoint it may be doing. */
  async close(): Promise<void> {
    if (this.trailing) clearTimeout(this.trailing);
    this.stopped = true;
    const worker = this.worker;
    if (!worker) return;
    const exited = new Promise((resolve) => worker.once('exit', resolve));
    // Held while it finishes: an unreferenced worker would let the process end before it did.
    worker.ref();
    worker.postMessage('close');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000).unref())]);
    await worker.terminate();
  }
}
