// A proxy configuration is checked against the other applications' before it is decided: the
// proxy keeps one definition of a name across all files, so a name another application's file
// defines (by Berth or by its user) would silently replace one of the two. The names a user's
// configuration defines are claimed in the log, so two concurrent saves of one name cannot both
// win; the stored configurations are read too, for those saved before names were claimed. Berth's
// own names follow the other applications' appNames, read from the read models. What it reaches
// (services, middlewares, hosts, server addresses) is checked against the services the caller
// manages, read from the read models too.
import { applicationAggregate } from '@berth/shared/domain/application/application';
import { checkProxyConfig, definedNames, mustNotClashWithOthers } from '@berth/shared/domain/application/proxy-config';
import { mustReachOnlyWhatItManages } from '@berth/shared/domain/application/proxy-reach';
import { withoutBerthsOwn } from '@berth/shared/domain/application/proxy-round-trip';
import { readProxyFile } from '@berth/shared/adapters/proxy-file';
import { mustNameOnlyExistingRedirects } from '@berth/shared/domain/application/proxy-redirect-refs';
import { redirectAggregate } from '@berth/shared/domain/redirect/redirect';
import type { Context } from '../context.ts';
import { moveNames, release } from './reservations.ts';
import { otherServices } from './other-services.ts';

/**
 * Applies `save` of `proxyConfig` once its names are the application's alone; BAD_REQUEST or
 * CONFLICT naming proxyConfig when one is another's, or when it reaches a service, middleware or host
 * the caller does not manage. `save` gets the stored configuration the names were checked
 * against, for its decider to refuse the save if another came between (its names would stay
 * claimed, let go by neither), and the text to save: the given one without Berth's own entries.
 */
export async function withProxyNames<T>(applicationId: string, given: string, ctx: Context,
  save: (replacing: string | null, proxyConfig: string) => Promise<T>): Promise<T> {
  // An unknown application is NOT_FOUND whatever the text.
  const current = await ctx.mustLoad(applicationAggregate, applicationId, 'applicationId');
  // What readProxyConfig answered can be saved back: Berth's own entries, as the file holds them, are not the user's.
  const proxyDir = ctx.infra.config.proxyDir;
  const proxyConfig = withoutBerthsOwn(given, await readProxyFile(proxyDir, current.appName), current.appName, proxyDir);
  // A text the decider would refuse claims nothing: it is refused before, as the decider would.
  checkProxyConfig(proxyConfig, current.appName);
  const services = await otherServices(ctx, applicationId);
  mustNotClashWithOthers(proxyConfig, services.filter((service) => service.isApplication));
  mustReachOnlyWhatItManages(proxyConfig, current.appName, services, ctx.seesAll);
  const redirects = await ctx.list(redirectAggregate, 'applicationId', applicationId);
  mustNameOnlyExistingRedirects(proxyConfig, current.appName, redirects.map((redirect) => String(redirect.redirectId)));
  const replacing = current.proxyConfig ?? null;
  return moveNames(ctx, 'proxyName', definedNames(replacing), definedNames(proxyConfig), applicationId, () => save(replacing, proxyConfig), 'proxyConfig');
}

/** Lets go of the names a deleted application's configuration held. */
export const releaseProxyNames = (ctx: Context, applicationId: string, proxyConfig: string | null | undefined) =>
  Promise.all(definedNames(proxyConfig).map((name) => release(ctx, 'proxyName', name, applicationId)));
