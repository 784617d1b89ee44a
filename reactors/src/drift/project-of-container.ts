// The compose service a container event names, from the container's labels alone: Berth's compose
// tool runs in the service's folder under the sources (`<sourcesDir>/<appName>/…`) and the tool
// records that folder; any other container (an operator's project, a build step) is let go here,
// before any read of the read models.
import { PROJECT_LABEL, WORKING_DIR_LABEL, composeProjectName } from '@berth/shared/domain/compose/project-name';

/** The appName of the compose service whose project the container is, or null for one Berth's tool did not make. */
export function appNameOfContainer(labels: Readonly<Record<string, string>>, sourcesDir: string): string | null {
  const dir = labels[WORKING_DIR_LABEL];
  if (!dir?.startsWith(`${sourcesDir}/`)) return null;
  const appName = dir.slice(sourcesDir.length + 1).split('/')[0];
  return appName && labels[PROJECT_LABEL] === composeProjectName(appName) ? appName : null;
}
