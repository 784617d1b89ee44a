// The reactors role: the durable bus consumers that do the runtime work and report it.
import type { Infrastructure } from '@berth/shared/runtime/infrastructure';
import type { RunningRole } from '@berth/shared/runtime/role';
import type { Consumer } from '@berth/shared/ports/bus';
import { runReactor, type Reactor } from './runtime/reactor.ts';
import { BackupScheduler } from './backups/scheduler.ts';
import { scheduledBackups } from './backups/tick.ts';

/** The reactors this process runs; the deployer joins with the deployment queue. */
export function reactorsOf(_infra: Infrastructure): Reactor[] {
  return [];
}

export async function start(infra: Infrastructure): Promise<RunningRole> {
  const bus = await infra.bus();
  const consumers: Consumer[] = [];
  for (const reactor of reactorsOf(infra)) {
    consumers.push(await runReactor(bus, reactor, (error, event) =>
      console.error(`reactor ${reactor.name} failed on ${event.type} ${event.id}; it comes back later`, error)));
  }
  // Backups run on their cron schedules, followed from the log (not a bus consumer: every process ticks).
  const backups = new BackupScheduler(infra.eventStore, scheduledBackups(infra), (error) => console.error('scheduled backup failed', error));
  backups.start();
  return {
    name: 'reactors',
    stop: async () => {
      await backups.stop();
      for (const consumer of consumers) await consumer.stop();
    },
  };
}
