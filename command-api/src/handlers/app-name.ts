// An appName is the runtime name of a service: unique across applications, compose services and
// databases, claimed in a reservation stream before the service that carries it is created.
import { badRequest, conflict } from '@berth/shared/errors';
import { randomHex } from '@berth/shared/ids';
import type { Context } from '../context.ts';
import { moveName, mustBeFree, release } from './reservations.ts';
import { wasDeployed } from './deployed.ts';

// No "_": the engine names a stack's services `<namespace>_<service>`, so a runtime name with one
// could be another project's stack service, and act on it (stop, remove, deploy over it).
const RUNTIME_NAME = /^[a-z0-9][a-z0-9.-]{0,62}$/;

/** `<slug of the requested name, else of the service name>-<6 hex>`: always a valid runtime name. */
export function newAppName(requested: string | undefined | null, serviceName: string): string {
  const slug = (source: string) => source.toLowerCase().replace(/[^a-z0-9.-]+/g, '-').replace(/^[^a-z0-9]+|-+$/g, '').slice(0, 48);
  const base = slug(requested ?? '') || slug(serviceName) || 'service';
  return `${base}-${randomHex(6)}`;
}

/** A name given exactly (on update) must already be a valid runtime name. */
export function checkRuntimeName(appName: string, field = 'appName'): string {
  if (!RUNTIME_NAME.test(appName)) {
    throw badRequest(field, 'must be 1 to 63 lowercase letters, digits, "-" or ".", starting with a letter or digit');
  }
  return appName;
}

export const releaseAppName = (ctx: Context, appName: string, owner: string) => release(ctx, 'appName', appName, owner);

/**
 * Applies an update that renames a service to `next` (from `renaming`; undefined: none): the new
 * name is claimed first, then the update is applied, and only then is the old name let go, so a
 * failure leaves the service with a name it owns.
 */
export const withAppName = <T>(ctx: Context, current: string, next: string | undefined, owner: string, apply: () => Promise<T>): Promise<T> =>
  moveName(ctx, 'appName', current, next, owner, apply);

/**
 * The name an update gives a service (undefined: it keeps its own), refused as the rename would be,
 * appending nothing. Once the service was deployed, the engine's service, a database's data volume
 * and the images carry the name, and a new name would start a second, empty service beside them.
 */
export async function renaming(ctx: Context, current: string, requested: string | undefined, owner: string): Promise<string | undefined> {
  const next = requested === undefined || requested === current ? undefined : checkRuntimeName(requested);
  if (next === undefined) return undefined;
  if (await wasDeployed(ctx, owner)) {
    throw conflict(`cannot change once the service was deployed: the engine's service, its data and its images carry ${current}`, 'appName');
  }
  await mustBeFree(ctx, 'appName', next, owner);
  return next;
}
