// Keeps one cron job per enabled backup, following the log: a job is made on create, remade when
// the schedule changes, and stopped on disable or removal. Every process that runs the reactors
// fires every tick; the tick's run id is the same in each, so only the first to start it runs it.
// Once it has read the log up to where it stood at start, it runs each backup's tick missed while
// Berth was down (missed-tick.ts), once.
import { Cron } from 'croner';
import { backupAggregate, type Backup } from '@berth/shared/domain/backup/backup';
import { missedTick } from '@berth/shared/domain/backup/missed-tick';
import { backupRunAggregate, type BackupRun } from '@berth/shared/domain/backup/run';
import { latestTickBefore, SCHEDULE_OPTIONS } from '@berth/shared/domain/backup/schedule';
import { splitStream, type RecordedEvent } from '@berth/shared/events/event';
import type { EventStore, Subscription } from '@berth/shared/ports/event-store';

/** Runs the backup's tick `tick` (its nominal time, the same in every process). */
export type FireTick = (backup: Backup, tick: Date) => Promise<void>;

interface Job {
  readonly schedule: string;
  readonly cron: Cron;
}

export class BackupScheduler {
  private readonly backups = new Map<string, Backup>();
  private readonly jobs = new Map<string, Job>();
  /** Per backup: when it was created, enabled or given its schedule, whichever came last. */
  private readonly scheduledSince = new Map<string, Date>();
  private readonly lastRunStartedAt = new Map<string, Date>();
  private subscription: Subscription | null = null;
  /** The log's head at start: missed ticks are looked for once the log is read up to it. */
  private caughtUpAt: number | null = null;

  constructor(private readonly eventStore: EventStore, private readonly fire: FireTick, private readonly onError: (error: unknown) => void) {}

  async start(): Promise<void> {
    this.caughtUpAt = await this.eventStore.head();
    if (this.caughtUpAt === 0) this.caughtUpAt = null;
    this.subscription = this.eventStore.subscribe(0, async (events) => this.apply(events));
  }

  async stop(): Promise<void> {
    await this.subscription?.stop();
    for (const job of this.jobs.values()) job.cron.stop();
    this.jobs.clear();
  }

  /** The backups a job is scheduled for, with their schedules (for tests and health). */
  scheduled(): Map<string, string> {
    return new Map([...this.jobs].map(([id, job]) => [id, job.schedule]));
  }

  private apply(events: readonly RecordedEvent[]): void {
    const touched = new Set<string>();
    for (const event of events) {
      const { aggregate, id } = splitStream(event.stream);
      if (aggregate === backupRunAggregate.name && event.type === 'BackupRunStarted') {
        const run = event.data as BackupRun;
        this.lastRunStartedAt.set(run.backupId, new Date(run.startedAt));
      }
      if (aggregate !== backupAggregate.name) continue;
      const before = this.backups.get(id) ?? null;
      const next = backupAggregate.evolve(before, event as never);
      if (next) this.backups.set(id, next); else this.backups.delete(id);
      if (next && (!before || before.schedule !== next.schedule || (before.enabled === false && next.enabled !== false))) {
        this.scheduledSince.set(id, new Date(event.metadata.occurredAt));
      }
      touched.add(id);
    }
    for (const id of touched) this.reconcile(id);
    const last = events.at(-1);
    if (this.caughtUpAt !== null && last && last.position >= this.caughtUpAt) {
      this.caughtUpAt = null;
      this.runMissedTicks(new Date());
    }
  }

  /** Each enabled backup's tick due while Berth was down, run now, once, as its scheduled run. */
  private runMissedTicks(now: Date): void {
    for (const [backupId, backup] of this.backups) {
      const since = this.scheduledSince.get(backupId);
      if (backup.enabled === false || !since) continue;
      const tick = missedTick({ schedule: backup.schedule, scheduledSince: since, lastRunStartedAt: this.lastRunStartedAt.get(backupId) ?? null }, now);
      if (!tick) continue;
      console.log(`backup ${backupId}: its tick of ${tick.toISOString()} was missed while Berth was down; running it now`);
      this.fire(backup, tick).catch(this.onError);
    }
  }

  private reconcile(backupId: string): void {
    const backup = this.backups.get(backupId);
    const job = this.jobs.get(backupId);
    const wanted = backup && backup.enabled !== false ? backup.schedule : null;
    if (job && job.schedule === wanted) return;
    job?.cron.stop();
    this.jobs.delete(backupId);
    if (wanted === null) return;
    // `protect`: a tick that comes while this process still runs the previous one is skipped here.
    // Another run of the backup (an older job's, a manual one) is guarded against by the claim (run-claim.ts).
    const cron = new Cron(wanted, { ...SCHEDULE_OPTIONS, protect: true, catch: (error) => this.onError(error) }, async () => {
      const current = this.backups.get(backupId);
      const tick = latestTickBefore(wanted, new Date());
      if (current && tick) await this.fire(current, tick);
    });
    this.jobs.set(backupId, { schedule: wanted, cron });
  }
}
