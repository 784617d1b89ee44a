// `berth start|api|projections|relay|reactors`: runs the named role (or, with `start`, every role
// in one process, the embedded default) configured by the environment, until SIGTERM or SIGINT.
// A start-up failure (a store that cannot be reached within its bound) is one clear line and exit 1.
import { pathToFileURL } from 'node:url';
import { configFrom, ROLES, type RoleName } from './config.ts';
import { messageOf } from '../errors.ts';

export const ROLE_COMMANDS = ['start', ...ROLES] as const;
export type RoleCommand = (typeof ROLE_COMMANDS)[number];

export const isRoleCommand = (name: string): name is RoleCommand => (ROLE_COMMANDS as readonly string[]).includes(name);

/** Starts what `command` names; resolves once it runs, and exits the process when told to stop. */
export async function runRoles(command: RoleCommand, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  let berth;
  try {
    const config = configFrom(env);
    const roles: readonly RoleName[] = command === 'start' ? config.roles : [command];
    // Imported here: the berth command's other commands are an API client, which loads none of this.
    const { launch } = await import('./launch.ts');
    berth = await launch({ ...config, roles });
  } catch (error) {
    console.error(`berth ${command} could not start: ${messageOf(error)}`);
    process.exit(1);
  }
  const running = berth;
  // A role's own timers do not hold the process (a projections process has nothing else that would):
  // it runs until it is told to stop.
  const alive = setInterval(() => {}, 2 ** 30);
  const shutdown = async (signal: string) => {
    console.error(`berth ${command}: ${signal}, stopping`);
    await running.stop();
    clearInterval(alive);
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [command = 'start'] = process.argv.slice(2);
  if (!isRoleCommand(command)) {
    console.error(`usage: berth ${ROLE_COMMANDS.join('|')}`);
    process.exit(2);
  }
  await runRoles(command);
}
