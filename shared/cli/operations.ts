// Every operation of the contract as a command: `berth <group> <procedure> --field value`.
import { contract } from '../contract/index.ts';
import type { Operation } from '../contract/operation.ts';
import { ApiError, call, request } from './client.ts';
import { inputFrom, kebab, parseArgs, switchFields, UsageError } from './flags.ts';
import { printFollowedLog } from './follow.ts';
import { render } from './output.ts';
import type { Settings } from './settings.ts';

const GROUPS = contract as unknown as Record<string, Record<string, Operation>>;
const squash = (name: string) => name.toLowerCase().replace(/-/g, '');

/** The group a word names: exactly, or without a plural `s` (`deployments` → `deployment`). */
export function groupOf(word: string): string | undefined {
  return [word, word.replace(/s$/, '')].find((candidate) => candidate in GROUPS);
}

export function usageOfGroup(group: string): string {
  return Object.values(GROUPS[group]!).map((operation) => `  berth ${group} ${kebab(operation.procedure)} ${
    Object.keys(operation.input.properties).map((field) => `--${kebab(field)}`).join(' ')}`).join('\n');
}

/** Flags every command takes, on top of the operation's own. */
const GLOBAL = new Set(['json', 'follow-stream']);

export async function runOperation(settings: Settings, group: string, argv: readonly string[], out: (text: string) => void): Promise<void> {
  const [procedure, ...rest] = argv;
  const operation = Object.values(GROUPS[group]!).find((candidate) => squash(candidate.procedure) === squash(procedure ?? ''));
  if (!operation || rest.includes('--help')) throw new UsageError(`berth ${group} takes one of:\n${usageOfGroup(group)}`);
  const { positional, flags } = parseArgs(rest, new Set([...switchFields(operation.input), 'json']));
  if (positional.length > 0) throw new UsageError(`unexpected ${positional.join(' ')}: fields are given as --flags`);
  const input = inputFrom(operation.input, flags, GLOBAL);
  const json = flags.has('json');
  // A following read (`deployment logs --follow`, the contract's query choice 'true') answers an
  // event stream: print it as it comes.
  if (input.follow === 'true') {
    const response = await request(settings, operation, input, 'text/event-stream, application/json');
    if (response.headers.get('content-type')?.startsWith('text/event-stream')) return printFollowedLog(response, out);
    out(render(await response.json(), json));
    return;
  }
  out(render(await call(settings, operation, input), json));
}

export { ApiError };
