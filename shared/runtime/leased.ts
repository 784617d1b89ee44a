// Work that only one process may do at a time (a projection, the relay, a singleton reactor):
// under a NATS lease when the roles run apart, else simply started.
import type { LeasedWork } from '../ports/lease.ts';
import type { Infrastructure } from './infrastructure.ts';
import type { RunningRole } from './role.ts';

export async function runLeased(infra: Infrastructure, name: string, work: LeasedWork): Promise<RunningRole> {
  const leases = await infra.leases();
  if (!leases) {
    await work.start();
    return { name, stop: () => work.stop() };
  }
  const lease = leases.hold(name, work);
  return { name, stop: () => lease.release() };
}
