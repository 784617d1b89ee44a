// Whose a container is, for the live views: a container found by an appName's labels or name is
// shown as that service's only when it carries the mark Berth put on it for that service (an
// operator's swarm service, stack or compose project may carry the same name).
import { PROJECT_LABEL, composeProjectName, isProjectOf, sourcesDirOf } from '@berth/shared/domain/compose/project-name';
import { SERVICE_LABEL } from '@berth/shared/ports/container-engine';
import { LEGACY_DATABASE_LABEL, isMarkedForId, markIn } from '@berth/shared/domain/ownership';
import type { Context } from '../context.ts';
import { holderOf } from './reservations.ts';

type Labels = Readonly<Record<string, string>> | null | undefined;

/** The id of the Berth service named `appName`, or null when no service of Berth's has that name. */
export const serviceIdOf = (ctx: Context, appName: string): Promise<string | null> => holderOf(ctx, 'appName', appName);

/**
 * Whether a container with `labels` is the service's (`appName`, id `serviceId`): it carries the
 * service's id, or its compose tool ran the project from the service's folder, or (a database's
 * task made before databases carried their id) it is a database task of the service's name.
 */
export function isContainerOfService(ctx: Context, labels: Labels, appName: string, serviceId: string): boolean {
  if (isMarkedForId(labels, serviceId)) return true;
  if (labels?.[PROJECT_LABEL] === composeProjectName(appName)) return isProjectOf(labels, sourcesDirOf(ctx.infra.config.dataDir), appName);
  return markIn(labels) === null && labels?.[LEGACY_DATABASE_LABEL] !== undefined && labels[SERVICE_LABEL] === appName;
}
