// The commands that are no operation of the contract (sign-in, the projections, Berth's roles):
// what each takes, its usage for `--help`, and its arguments checked before it acts, so that a
// word it does not take is refused rather than ignored.
import { parseArgs, UsageError, type Parsed } from './flags.ts';

interface Special {
  /** What `--help` prints: the command's line, then what it does. */
  readonly usage: string;
  /** The flags it takes (switches and valued alike). */
  readonly flags: readonly string[];
  /** How many words it takes after its name. */
  readonly words: number;
}

const role = (name: string, what: string): Special => ({
  usage: `berth ${name}\n  ${what}, configured by the environment (README); runs until SIGTERM or SIGINT. Takes no arguments.`,
  flags: [],
  words: 0,
});

const projectionsRole = role('projections', 'runs the projections role (the read models) in this process');

export const SPECIAL = {
  start: role('start', 'runs Berth in this process: the roles BERTH_ROLES names (all of them by default)'),
  api: role('api', 'runs the api role (the HTTP interface) in this process'),
  projections: { ...projectionsRole, usage: `${projectionsRole.usage}\n\nberth projections status [--json]\nberth projections rebuild [name] [--json]` },
  relay: role('relay', 'runs the relay role (the log to the bus) in this process'),
  reactors: role('reactors', 'runs the reactors role (deployments, backups, proxy files, notifications) in this process'),
  'projections status': { usage: 'berth projections status [--json]\n  each read model\'s position and lag, from the running Berth', flags: ['json'], words: 0 },
  'projections rebuild': {
    usage: 'berth projections rebuild [name] [--json]\n  rebuilds the read models (or the one named) while Berth serves', flags: ['json'], words: 1,
  },
  login: {
    usage: 'berth login --url http://localhost:3000 --email me@example.com [--password p | BERTH_PASSWORD=p] [--pin 123456]\n'
      + '  signs in and saves the address and token in $BERTH_CONFIG or ~/.config/berth/config.json (mode 0600);\n'
      + '  on a terminal, asks for the password (not shown) and a two-factor code that were not given',
    flags: ['url', 'email', 'password', 'pin'],
    words: 0,
  },
  logout: { usage: 'berth logout\n  revokes the saved token and forgets it. Takes no arguments.', flags: [], words: 0 },
} as const satisfies Record<string, Special>;

export type SpecialName = keyof typeof SPECIAL;

const ASKS_HELP = new Set(['--help', '-h']);

/**
 * The arguments of `berth <name> …`, checked; null when they ask for help (`--help`, `-h`), which
 * wins over everything else. A flag or word the command does not take is a one-line usage error.
 */
export function argumentsOf(name: SpecialName, argv: readonly string[]): Parsed | null {
  if (argv.some((word) => ASKS_HELP.has(word))) return null;
  const special: Special = SPECIAL[name];
  const parsed = parseArgs(argv);
  const unknown = [...parsed.flags.keys()].find((flag) => !special.flags.includes(flag));
  const takes = special.flags.length > 0 ? `it takes ${special.flags.map((flag) => `--${flag}`).join(' ')}` : 'it takes no flags';
  if (unknown !== undefined) throw new UsageError(`berth ${name} has no flag --${unknown}: ${takes} (berth ${name} --help)`);
  if (parsed.positional.length > special.words) {
    const extra = parsed.positional.slice(special.words).join(' ');
    throw new UsageError(`berth ${name} takes ${special.words === 0 ? 'no words' : `at most ${special.words} word`}, not ${extra} (berth ${name} --help)`);
  }
  return parsed;
}
