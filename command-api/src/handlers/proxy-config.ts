// A proxy configuration is checked against the other applications' before it is decided: the
// proxy keeps one definition of a name across all files, so a name another application's file
// defines (by Berth or by its user) would silently replace one of the two. Read from the read
// models: two concurrent saves of the same new name may both pass.
import { applicationAggregate } from '@berth/shared/domain/application/application';
import { mustNotClashWithOthers } from '@berth/shared/domain/application/proxy-config';
import type { Context } from '../context.ts';

/** BAD_REQUEST naming proxyConfig when `proxyConfig` defines a name that another application's file holds. */
export async function mustNotClashAcrossApplications(applicationId: string, proxyConfig: string, ctx: Context): Promise<void> {
  // An unknown application is NOT_FOUND whatever the text.
  await ctx.mustLoad(applicationAggregate, applicationId, 'applicationId');
  const others = (await ctx.infra.readStore.all(applicationAggregate.name))
    .filter((doc) => doc.applicationId !== applicationId)
    .map((doc) => ({ appName: String(doc.appName), proxyConfig: typeof doc.proxyConfig === 'string' ? doc.proxyConfig : null }));
  mustNotClashWithOthers(proxyConfig, others);
}
