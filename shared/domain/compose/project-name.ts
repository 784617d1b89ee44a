// The compose project name of a `container-compose` service: its appName, as the compose tools
// normalise a name (docker-compose v1: lowercase, drops every character outside [a-z0-9_-]; the
// v2 plugin the same, and no leading "_" or "-"). Berth passes it itself and finds the project's
// objects by the label the tools give them. Such a service's appName holds no "." (refused on
// save: `a.b` and `ab` would share one project), so this is its appName, but for a service saved
// with one before: `site-v1.2-92f9a5` is the project `site-v12-92f9a5`, as the tool made it.
import { resolve } from 'node:path';

/** The project name the compose tools use for `appName`. */
export function composeProjectName(appName: string): string {
  return appName.toLowerCase().replace(/[^a-z0-9_-]/g, '').replace(/^[_-]+/, '');
}

/** Why `appName` cannot name a compose project, or null. */
export const projectNameFault = (appName: string): string | null => (appName.includes('.')
  ? 'cannot hold "." for a container-compose service (the compose tools drop it, and two appNames would share one project): use "-"'
  : null);

/** The label the compose tools put on everything they create for a project: its name. */
export const PROJECT_LABEL = 'com.docker.compose.project';

/** The folder the compose tool records as a project's: on each container it makes (v1 and v2 alike). */
export const WORKING_DIR_LABEL = 'com.docker.compose.project.working_dir';

/** Where Berth keeps the services' sources, under its data folder: absolute, as the tool records a folder. */
export const sourcesDirOf = (dataDir: string): string => resolve(dataDir, 'sources');

/**
 * Whether a container of the project `appName` is one Berth's compose tool made: Berth runs the tool
 * on a file in the service's own folder under its sources, and the tool records that folder. An
 * operator's `docker compose -p <name>` runs from a folder of its own.
 */
export function isProjectOf(labels: Readonly<Record<string, string>> | null | undefined, sourcesDir: string, appName: string): boolean {
  const folder = `${sourcesDir}/${appName}`;
  const dir = labels?.[WORKING_DIR_LABEL];
  return dir !== undefined && (dir === folder || dir.startsWith(`${folder}/`));
}
