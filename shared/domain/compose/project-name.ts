// The compose project name of a `container-compose` service. The compose tools normalise the name
// they are given (docker-compose v1: lowercase, drops every character outside [a-z0-9_-]; the v2
// plugin the same, and no leading "_" or "-"), and label what they create with the normalised one,
// so Berth passes this name itself and finds the project's objects by it. A "." (which appNames
// may have) becomes "_" (which they may not), so no two appNames share a project: dropping it would
// make `a.b`'s project `ab`'s, and one service's stop or delete would act on the other's containers.

/** The project name the compose tools use for `appName`. */
export function composeProjectName(appName: string): string {
  return appName.toLowerCase().replace(/\./g, '_').replace(/[^a-z0-9_-]/g, '').replace(/^[_-]+/, '');
}

/** The appName whose project is `project`: the inverse, for every appName made since "_" left them. */
export const appNameOfProject = (project: string): string => project.replace(/_/g, '.');
