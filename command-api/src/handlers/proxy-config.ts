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
import type { Context } from '../context.ts';
import { moveNames, release } from './reservations.ts';
import { otherServices } from './other-services.ts';

/**
 * Applies `save` of `proxyConfig` once its names are the application's alone; BAD_REQUEST or
 * CONFLICT naming proxyConfig when one is another's, or when it reaches a service, middleware or host
 * the caller does not manage. `save` gets the configuration the names were
 * checked against, for its decider to refuse the save if another came between (its names would
 * stay claimed, let go by neither).
 */
export async function withProxyNames<T>(applicationId: string, proxyConfig: string, ctx: Context, save: (replacing: string | null) => Promise<T>): Promise<T> {
  // An unknown application is NOT_FOUND whatever the text.
  const current = await ctx.mustLoad(applicationAggregate, applicationId, 'applicationId');
  // A text the decider would refuse claims nothing: it is refused before, as the decider would.
  checkProxyConfig(proxyConfig, current.appName);
  const services = await otherServices(ctx, applicationId);
  mustNotClashWithOthers(proxyConfig, services.filter((service) => service.isApplication));
  mustReachOnlyWhatItManages(proxyConfig, current.appName, services, ctx.seesAll);
  const replacing = current.proxyConfig ?? null;
  return moveNames(ctx, 'proxyName', definedNames(replacing), definedNames(proxyConfig), applicationId, () => save(replacing), 'proxyConfig');
}

/** Lets go of the names a deleted application's configuration held. */
export const releaseProxyNames = (ctx: Context, applicationId: string, proxyConfig: string | null | undefined) =>
  Promise.all(definedNames(proxyConfig).map((name) => release(ctx, 'proxyName', name, applicationId)));
