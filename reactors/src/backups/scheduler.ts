// Keeps one cron job per enabled backup, following the log: a job is made on create, remade when
// the schedule changes, and stopped on disable or removal. Every process that runs the reactors
// fires every tick; the tick's run id is the same in each, so only the first to start it runs it.
import { Cron } from 'croner';
import { backupAggregate, type Backup } from '@berth/shared/domain/backup/backup';
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
  private subscription: Subscription | null = null;

  constructor(private readonly eventStore: EventStore, private readonly fire: FireTick, private readonly onError: (error: unknown) => void) {}

  start(): void {
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
      if (aggregate !== backupAggregate.name) continue;
      const next = backupAggregate.evolve(this.backups.get(id) ?? null, event as never);
      if (next) this.backups.set(id, next); else this.backups.delete(id);
      touched.add(id);
    }
    for (const id of touched) this.reconcile(id);
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
    const cron = new Cron(wanted, { protect: true, catch: (error) => this.onError(error) }, async (self: Cron) => {
      const current = this.backups.get(backupId);
      const [tick] = self.previousRuns(1, new Date(Date.now() + 1));
      if (current && tick) await this.fire(current, tick);
    });
    this.jobs.set(backupId, { schedule: wanted, cron });
  }
}
