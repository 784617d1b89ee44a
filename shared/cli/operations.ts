// Every operation of the contract as a command: `berth <group> <procedure> --field value`.
import { contract } from '../contract/index.ts';
import type { Operation } from '../contract/operation.ts';
import { answerOf, ApiError, call, request } from './client.ts';
import type { TSchema } from '@sinclair/typebox';
import { inputFrom, kebab, parseArgs, squash, switchOn, typesOf, UsageError } from './flags.ts';
import { printFollowedLog } from './follow.ts';
import { usageOfGroup, usageOfOperation } from './help.ts';
import { render } from './output.ts';
import { ask } from './prompt.ts';
import type { Settings } from './settings.ts';

const GROUPS = contract as unknown as Record<string, Record<string, Operation>>;
/** Words asking for help in place of an operation; after one, only `--help`, which no flag's value can be. */
export const HELP = new Set(['--help', '-h', 'help']);

/** The group a word names: exactly, or without a plural `s` (`deployments` → `deployment`). */
export function groupOf(word: string): string | undefined {
  return [word, word.replace(/s$/, '')].find((candidate) => candidate in GROUPS);
}

export const groupUsage = (group: string) => `berth ${group} takes one of:\n${usageOfGroup(Object.values(GROUPS[group]!))}`;

/** Flags every command takes, on top of the operation's own. */
const GLOBAL = new Set(['json', 'follow-stream']);

/** The answer of `deployment.logs`, which a person reads as the log itself. */
interface DeploymentLog { readonly status: string; readonly log: string }

/**
 * The log text itself, whole, as `--follow` prints it: a log read as a record would be one value
 * on many lines. An empty log says why on stderr, leaving stdout the log (nothing) for a pipe.
 */
function printLog(answer: DeploymentLog, out: (text: string) => void): void {
  if (answer.log === '') return console.error(`(no log yet: the deployment is ${answer.status})`);
  out(answer.log.replace(/\r?\n$/, ''));
}

/** Prints an answer: the log operation's as its text, any other as a record or table. */
function printAnswer(operation: Operation, answer: unknown, json: boolean, out: (text: string) => void): void {
  if (operation === contract.deployment.logs && !json) return printLog(answer as DeploymentLog, out);
  out(render(answer, json));
}

/**
 * On a terminal, the required passwords left out (`auth create-admin --email e`) are asked for,
 * without showing them: typed as flags, the shell's history keeps them. Not one that takes null,
 * which means "leave it as it is" (`auth update`): an answer would change it.
 */
async function askForPasswords(operation: Operation, input: Record<string, unknown>): Promise<void> {
  for (const field of operation.input.required ?? []) {
    if (!/password$/i.test(field) || field in input || typesOf(operation.input.properties[field] as TSchema).includes('null')) continue;
    const answer = await ask(`${kebab(field)}: `, { hidden: true });
    if (answer !== undefined) input[field] = answer;
  }
}

/** Runs `berth <group> <operation> …`; the settings are read only once a call is to be made. */
export async function runOperation(settings: () => Settings, group: string, argv: readonly string[], out: (text: string) => void): Promise<void> {
  const [procedure, ...rest] = argv;
  if (procedure === undefined || HELP.has(procedure)) {
    // Help asked for is an answer (stdout, exit 0); a group with no operation named is a usage error.
    if (procedure === undefined) throw new UsageError(groupUsage(group));
    return out(groupUsage(group));
  }
  const operation = Object.values(GROUPS[group]!).find((candidate) => squash(candidate.procedure) === squash(procedure));
  if (!operation) throw new UsageError(`no operation "${procedure}" in ${group}; ${groupUsage(group)}`);
  if (rest.includes('--help')) return out(usageOfOperation(operation));
  const { positional, flags } = parseArgs(rest);
  if (positional.length > 0) throw new UsageError(`unexpected ${positional.join(' ')}: fields are given as --flags`);
  const input = inputFrom(operation.input, flags, GLOBAL);
  const json = switchOn(flags, 'json');
  await askForPasswords(operation, input);
  // A following read (`deployment logs --follow`, the contract's query choice 'true') answers an
  // event stream: print it as it comes.
  const reached = settings();
  if (input.follow === 'true') {
    const response = await request(reached, operation, input, 'text/event-stream, application/json');
    const reopen = () => request(reached, operation, input, 'text/event-stream');
    if (response.headers.get('content-type')?.startsWith('text/event-stream')) return printFollowedLog(reached.url, response, reopen, out);
    return printAnswer(operation, await answerOf(reached, response), json, out);
  }
  printAnswer(operation, await call(reached, operation, input), json, out);
}

export { ApiError };
