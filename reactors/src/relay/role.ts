import { join } from 'node:path';
import type { Infrastructure } from '@berth/shared/runtime/infrastructure';
import type { RunningRole } from '@berth/shared/runtime/role';
import { Relay } from './relay.ts';

export async function start(infra: Infrastructure): Promise<RunningRole> {
  const relay = new Relay(infra.eventStore, await infra.bus(), join(infra.config.dataDir, 'relay.checkpoint'));
  relay.start();
  return { name: 'relay', stop: () => relay.stop() };
}
