// The composition root: opens the infrastructure and starts the configured roles in this process.
// Roles are loaded by package name when asked for, so `shared` depends on none of them (each import
// is written out, so that the build of `pnpm start` finds and bundles it). The process entry is
// roles-cli.ts (it imports this module; an entry here would be an import cycle under top-level await).
import type { Clock } from '../ports/clock.ts';
import type { Config, RoleName } from './config.ts';
import { openInfrastructure, type Infrastructure } from './infrastructure.ts';
import type { RunningRole, StartRole } from './role.ts';

const PACKAGES: Record<RoleName, () => Promise<unknown>> = {
  api: () => import('@berth/command-api'),
  projections: () => import('@berth/projections'),
  relay: () => import('@berth/reactors/relay/role'),
  reactors: () => import('@berth/reactors'),
};

/**
 * Projections start before the API, so that the API's first read-your-writes wait can succeed;
 * the reactors before the relay, so that their consumers exist when the first event is published.
 */
const ORDER: readonly RoleName[] = ['projections', 'reactors', 'relay', 'api'];

export interface Berth {
  readonly infrastructure: Infrastructure;
  stop(): Promise<void>;
}

export async function launch(config: Config, clock?: Clock): Promise<Berth> {
  const infrastructure = await openInfrastructure(config, clock);
  const running: RunningRole[] = [];
  const stop = async () => {
    for (const role of running.reverse()) await role.stop();
    await infrastructure.close();
  };
  try {
    for (const role of ORDER.filter((name) => config.roles.includes(name))) {
      const { start } = (await PACKAGES[role]()) as { start: StartRole };
      running.push(await start(infrastructure));
    }
  } catch (error) {
    // A refused start (the data folder held by another process, say) leaves nothing open behind it.
    await stop().catch(() => {});
    throw error;
  }
  return { infrastructure, stop };
}
