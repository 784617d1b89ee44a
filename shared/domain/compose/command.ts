// The command Berth runs to bring a compose service up: what `compose.getDefaultCommand` shows.
import type { Compose } from './compose.ts';
import { composeProjectName } from './project-name.ts';

/** A word as a POSIX shell reads it: quoted only when it has to be. */
const word = (text: string) => (/^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`);

export function defaultCommand({ appName, composePath, composeType }: Pick<Compose, 'appName' | 'composePath' | 'composeType'>): string {
  switch (composeType) {
    case 'stack': return `docker stack deploy -c ${word(composePath)} ${word(appName)} --prune --with-registry-auth`;
    case 'container-compose': return `docker compose -p ${word(composeProjectName(appName))} -f ${word(composePath)} up -d --build --remove-orphans`;
  }
}
