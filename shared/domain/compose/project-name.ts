// The compose project name of a `container-compose` service. The compose tools normalise the name
// they are given (docker-compose v1: lowercase, drops every character outside [a-z0-9_-]; the v2
// plugin the same, and no leading "_" or "-"), and label what they create with the normalised one,
// so Berth passes this name itself and finds the project's objects by it: an appName such as
// `site-v1.2-92f9a5` is the project `site-v12-92f9a5`.

/** The project name the compose tools use for `appName`. */
export function composeProjectName(appName: string): string {
  return appName.toLowerCase().replace(/[^a-z0-9_-]/g, '').replace(/^[_-]+/, '');
}
