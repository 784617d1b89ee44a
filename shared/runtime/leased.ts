// Work that only one process may do at a time (a projection, the relay, a singleton reactor):
// under a NATS lease when the roles run apart, else started once this process holds the data
// folder (without NATS: a second `pnpm start` on the same folder is refused rather than run twice).
import type { LeasedWork } from '../ports/lease.ts';
import { waitedFor, type Infrastructure } from './infrastructure.ts';
import type { RunningRole } from './role.ts';
import { messageOf } from '../errors.ts';

export async function runLeased(infra: Infrastructure, name: string, work: LeasedWork): Promise<RunningRole> {
  const leases = await waitedFor(infra, 'the leases', infra.leases);
  if (!leases) {
    // Without a lease the folder's lock keeps it once: the role's own, and without NATS the whole folder's.
    infra.holdDataFolder(name);
    await work.start();
    console.log(`${name}: running`);
    return { name, stop: () => work.stop() };
  }
  // One line per change of hands, so an operator sees which process writes.
  const lease = leases.hold(name, {
    async start() {
      try {
        await work.start();
      } catch (error) {
        console.error(`${name}: holding the lease, but could not start (${messageOf(error)}); trying again`);
        throw error;
      }
      console.log(`${name}: holding the lease, running`);
    },
    async stop() {
      await work.stop();
      console.log(`${name}: lease given up, stopped`);
    },
  });
  console.log(`${name}: waiting for the lease`);
  return { name, stop: () => lease.release() };
}
