// `berth start` runs the roles the configuration names (BERTH_ROLES); `berth api`, `berth
// projections`, `berth relay`, `berth reactors` run one role in this process.
import { ROLES, configFrom, type RoleName } from '../runtime/config.ts';
import { launch } from '../runtime/launch.ts';

export const isRole = (word: string): word is RoleName => (ROLES as readonly string[]).includes(word);

export async function runRoles(only: RoleName | null): Promise<void> {
  const config = configFrom(process.env, only ? { roles: [only] } : {});
  const berth = await launch(config);
  const shutdown = async () => {
    await berth.stop();
    process.exit(0);
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}
