// The command Berth runs to bring a compose service up: what `compose.getDefaultCommand` shows.
import type { Compose } from './compose.ts';
import { composeProjectName } from './project-name.ts';
import { words } from './values.ts';

/** A word as a POSIX shell reads it: quoted only when it has to be. */
const word = (text: string) => (/^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`);

/** What a container-compose deploy asks of the compose tool when the service has no `command` of its own. */
export const DEFAULT_UP: readonly string[] = ['up', '-d', '--build', '--remove-orphans'];

/** The words Berth runs the compose tool with before a service's `command`: the tool, its project and its file. */
export const composeToolPrefix = ({ appName, composePath }: Pick<Compose, 'appName' | 'composePath'>, tool: readonly string[] = ['docker', 'compose']) =>
  [...tool, '-p', composeProjectName(appName), '-f', composePath];

export function defaultCommand({ appName, composePath, composeType }: Pick<Compose, 'appName' | 'composePath' | 'composeType'>): string {
  switch (composeType) {
    case 'stack': return `docker stack deploy -c ${word(composePath)} ${word(appName)} --prune --with-registry-auth`;
    case 'container-compose': return [...composeToolPrefix({ appName, composePath }), ...DEFAULT_UP].map(word).join(' ');
  }
}

const TOOLS = [['docker', 'compose'], ['docker-compose']] as const;
const WHOLE_COMMAND_LINE = /^(docker|docker-compose)$/;

/**
 * The words of a service's `command` that Berth gives the tool: without the whole line's start Berth
 * itself runs (compose.getDefaultCommand's, copied), when it starts so.
 */
export function givenArguments(command: string, compose: Pick<Compose, 'appName' | 'composePath'>): string[] {
  const given = words(command);
  for (const tool of TOOLS) {
    const prefix = composeToolPrefix(compose, tool);
    if (prefix.every((item, i) => given[i] === item)) return given.slice(prefix.length);
  }
  return given;
}

/** Why `command` is not the tool's arguments but another whole command line (Berth passes its own project and file), or null. */
export function wholeCommandLineFault(command: string, compose: Pick<Compose, 'appName' | 'composePath'>): string | null {
  const first = givenArguments(command, compose)[0];
  return first !== undefined && WHOLE_COMMAND_LINE.test(first)
    ? `holds the compose tool's arguments (for example "up -d web"), not a whole command line: "${command}"`
    : null;
}
