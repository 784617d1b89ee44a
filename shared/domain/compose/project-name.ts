// The compose project name of a `container-compose` service: its appName, as the compose tools
// normalise a name (docker-compose v1: lowercase, drops every character outside [a-z0-9_-]; the
// v2 plugin the same, and no leading "_" or "-"). Berth passes it itself and finds the project's
// objects by the label the tools give them. Such a service's appName holds no "." (refused on
// save: `a.b` and `ab` would share one project), so this is its appName, but for a service saved
// with one before: `site-v1.2-92f9a5` is the project `site-v12-92f9a5`, as the tool made it.

/** The project name the compose tools use for `appName`. */
export function composeProjectName(appName: string): string {
  return appName.toLowerCase().replace(/[^a-z0-9_-]/g, '').replace(/^[_-]+/, '');
}

/** Why `appName` cannot name a compose project, or null. */
export const projectNameFault = (appName: string): string | null => (appName.includes('.')
  ? 'a container-compose service\'s appName cannot hold "." (the compose tools drop it, and two appNames would share one project): use "-"'
  : null);
