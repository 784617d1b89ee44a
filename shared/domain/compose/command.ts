// The command Berth runs to bring a compose service up: what `compose.getDefaultCommand` shows.
import type { Compose } from './compose.ts';
import { composeProjectName } from './project-name.ts';

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
