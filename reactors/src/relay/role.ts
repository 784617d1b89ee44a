import { waitedFor, type Infrastructure } from '@berth/shared/runtime/infrastructure';
import { runLeased } from '@berth/shared/runtime/leased';
import type { RunningRole } from '@berth/shared/runtime/role';
import { Relay } from './relay.ts';

/** One relay publishes at a time: when the roles run apart, the others wait for its lease. */
export async function start(infra: Infrastructure): Promise<RunningRole> {
  const relay = new Relay(infra.eventStore, await waitedFor(infra, 'the bus', infra.bus), await waitedFor(infra, "the relay's checkpoint", infra.relayCheckpoint));
  return runLeased(infra, 'relay', { start: () => relay.start(), stop: () => relay.stop() });
}
