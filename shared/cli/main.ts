// `berth`: every operation of the contract as a command, plus sign-in, the history, the
// projections, and the roles of a Berth process.
import { contract } from '../contract/index.ts';
import { ApiError, call, connectionFailure, NotJson, NotSignedIn } from './client.ts';
import { switchOn, UsageError, type Parsed } from './flags.ts';
import { EndedUnsuccessfully, UNSUCCESSFUL_EXIT } from './follow.ts';
import { runEvents } from './history.ts';
import { groupOf, HELP, runOperation } from './operations.ts';
import { render } from './output.ts';
import { isRoleCommand, runRoles } from '../runtime/roles-cli.ts';
import { ask } from './prompt.ts';
import { BadSettings, loadSettings, saveSettings, trimmed, urlProblem, type Settings } from './settings.ts';
import { argumentsOf, SPECIAL, type SpecialName } from './special-commands.ts';

const USAGE = `berth: the command line of Berth

  BERTH_TOKEN=<setup token> berth auth create-admin --email e --password p   a new Berth's first admin
  berth login --url http://localhost:3000 --email me@example.com [--password p | BERTH_PASSWORD] [--pin 123456]
  berth logout
  berth <group> <operation> --field value ... [--json]    e.g. berth project create --name shop
  berth <group> --help | berth <group> <operation> --help   the operations of a group, the flags of one
  berth events [list|tail|export] [--aggregate a] [--type t] [--stream s] [--actor-id id] [--from t] [--to t] [--all]
  berth projections status | rebuild [name] [--json]   rebuild while Berth serves
  berth deployments logs --deployment-id id --follow   exits ${UNSUCCESSFUL_EXIT} when the deployment fails or is cancelled
  berth start | api | projections | relay | reactors      run Berth's roles in this process
  berth <command> --help                                   what one of these commands takes

groups: ${Object.keys(contract).join(', ')}
The server and token live in ${'$'}BERTH_CONFIG or ~/.config/berth/config.json (mode 0600); BERTH_URL and BERTH_TOKEN override them.`;

const out = (text: string) => console.log(text);

/** `--url`'s address, checked as BERTH_URL and the saved one are; a usage error, as it was typed here. */
function urlFlag(raw: string | true): string {
  if (raw === true) throw new UsageError('--url needs a value: http://host:port or https://host');
  const problem = urlProblem(raw);
  if (problem) throw new UsageError(`--url ${problem}`);
  return trimmed(raw);
}

/** The saved settings, read once and only when a command calls Berth: help and the roles never read them. */
let saved: Settings | null = null;
const settings = (): Settings => (saved ??= loadSettings());

/** The command's checked arguments, or null once its usage is printed for `--help`. */
function argumentsFor(name: SpecialName, argv: readonly string[]): Parsed | null {
  const parsed = argumentsOf(name, argv);
  if (parsed === null) out(SPECIAL[name].usage);
  return parsed;
}

async function login(argv: readonly string[]): Promise<void> {
  const args = argumentsFor('login', argv);
  if (!args) return;
  const { flags } = args;
  // Given --url, the file is not read: login is how a broken one is written again.
  const urlGiven = flags.get('url');
  const url = urlGiven === undefined ? settings().url : urlFlag(urlGiven);
  const email = flags.get('email');
  const password = flags.get('password') ?? (process.env.BERTH_PASSWORD || undefined) ?? await ask('password: ', { hidden: true });
  if (typeof email !== 'string' || typeof password !== 'string') throw new UsageError('berth login --email e [--password p | BERTH_PASSWORD=p] [--url u]');
  const session = { url, token: null };
  const answer = (await call(session, contract.auth.login, { email, password })) as { token?: string; id?: string; is2FAEnabled?: boolean };
  let token = answer.token;
  if (!token && answer.is2FAEnabled) {
    const pin = flags.get('pin') ?? await ask('two-factor code: ', { hidden: false });
    if (typeof pin !== 'string') throw new UsageError('this account has two-factor on: add --pin with the current code');
    token = ((await call(session, contract.auth.verifyLogin2FA, { id: answer.id, pin })) as { token: string }).token;
  }
  const path = saveSettings({ url, token: token ?? null });
  out(`signed in to ${url} as ${email}; token saved in ${path}`);
}

/** The local token is forgotten whatever the server answers; its refusal (401) means the token was dead already. */
async function logout(argv: readonly string[]): Promise<void> {
  if (!argumentsFor('logout', argv)) return;
  const current = settings();
  if (!current.token) return out('signed out (no token was saved)');
  try {
    await call(current, contract.auth.logout, {});
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 401)) throw error;
    console.error(`note: the server no longer took this token (${error.message})`);
  } finally {
    saveSettings({ url: current.url, token: null });
  }
  out('signed out');
}

async function projections(verb: 'status' | 'rebuild', argv: readonly string[]): Promise<void> {
  const args = argumentsFor(`projections ${verb}`, argv);
  if (!args) return;
  const json = switchOn(args.flags, 'json');
  const [name] = args.positional;
  const answer = verb === 'status'
    ? await call(settings(), contract.projections.status, {})
    : await call(settings(), contract.projections.rebuild, name ? { name } : {});
  out(render(answer, json));
}

async function main(argv: readonly string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (!command || HELP.has(command)) return out(USAGE);
  if (command === 'login') return login(rest);
  if (command === 'logout') return logout(rest);
  if (command === 'projections' && (rest[0] === 'status' || rest[0] === 'rebuild')) return projections(rest[0], rest.slice(1));
  // The same start as `pnpm start <role>` (which runs it from the build rather than through tsx).
  if (isRoleCommand(command)) return argumentsFor(command, rest) ? runRoles(command) : undefined;
  if (command === 'events') return runEvents(settings, rest, out);
  const group = groupOf(command);
  if (!group) throw new UsageError(`no command "${command}"\n\n${USAGE}`);
  return runOperation(settings, group, rest, out);
}

/**
 * The one line a failure is told in; null for a fault of the CLI itself, which keeps its stack.
 * A call that failed to connect names its own address (login's --url is not the saved one); only
 * a stream broken while read is left, and streams are read from the saved Berth.
 */
function explained(error: unknown): string | null {
  if (error instanceof UsageError || error instanceof EndedUnsuccessfully || error instanceof NotSignedIn) return error.message;
  if (error instanceof BadSettings || error instanceof NotJson) return error.message;
  if (error instanceof ApiError) return `${error.status} ${error.body.code ?? ''}: ${error.message}`;
  return connectionFailure(error, saved?.url ?? '');
}

// A reader that has gone (`berth events export | head -1`) ends the command as it ends `cat`:
// quietly, and not as a failure.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(0);
});

try {
  await main(process.argv.slice(2));
} catch (error) {
  const line = explained(error);
  if (line === null) throw error;
  console.error(line);
  process.exitCode = error instanceof UsageError ? 2 : error instanceof EndedUnsuccessfully ? UNSUCCESSFUL_EXIT : 1;
}
