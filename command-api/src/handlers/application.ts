import type { contract } from '@berth/shared/contract/index';
import { generateSshKeyPair } from '@berth/shared/crypto/ssh-key';
import {
  applicationAggregate, newApplication,
} from '@berth/shared/domain/application/application';
import type { BuildType } from '@berth/shared/domain/application/record';
import { deploymentAggregate } from '@berth/shared/domain/deployment/deployment';
import { newId } from '@berth/shared/ids';
import type { Doc } from '@berth/shared/ports/read-store';
import type { Context } from '../context.ts';
import { newAppName, releaseAppName } from './app-name.ts';
import { stopUsing, withClaim } from './reservations.ts';
import { inProject, leaveProject } from './project-use.ts';
import { childrenOf, removeChildrenOf } from './application-children.ts';
import { updateApplication } from './application-update.ts';
import { refreshedToken, sealedEnv, sealedOrNull } from './secret-update.ts';
import { recordedGitUrl } from './git-source.ts';
import { releaseDeployToken, withDeployToken } from '../deploy-token.ts';
import { readProxyFile } from '@berth/shared/adapters/proxy-file';
import { appMonitoring } from './engine.ts';
import { releaseProxyNames, withProxyNames } from './proxy-config.ts';
import { applicationRuntime } from './application-runtime.ts';
import { change, type BuilderOf, type GroupHandlers } from './kit.ts';

/** A command on an existing application: answers the record after it. */
const act = <I extends { applicationId: string }>(build: BuilderOf<typeof applicationAggregate, I>) => change(applicationAggregate, build);

/**
 * Deletes an application as `application.delete` does: its ports, redirects and users first, each
 * by its own removal, then the application, and only then its appName and deploy token are free for another service.
 */
export async function removeApplication(applicationId: string, ctx: Context): Promise<Doc | null> {
  // Begun in its stream first (NOT_FOUND when there is none): a change made while its children go is refused, not deleted with it.
  await ctx.execute(applicationAggregate, applicationId, { type: 'BeginRemoval', data: { applicationId } });
  await removeChildrenOf(applicationId, ctx);
  const { before } = await ctx.execute(applicationAggregate, applicationId, { type: 'DeleteApplication', data: { applicationId } });
  if (before) {
    await releaseAppName(ctx, before.appName, applicationId);
    await releaseDeployToken(ctx, applicationAggregate, applicationId, before.refreshToken);
    await releaseProxyNames(ctx, applicationId, before.proxyConfig);
  }
  if (before?.registryId) await stopUsing(ctx, 'registry', before.registryId, applicationId);
  if (before) await leaveProject(ctx, before.projectId, applicationId);
  return ctx.view(applicationAggregate, before);
}

export const application: GroupHandlers<typeof contract.application> = {
  create: async (input, ctx) => {
    const applicationId = ctx.newId(applicationAggregate);
    const appName = newAppName(input.appName, input.name);
    const token = newId();
    const data = newApplication({
      applicationId, projectId: input.projectId, name: input.name, appName,
      description: input.description ?? null, refreshToken: ctx.secrets.seal(token), createdAt: ctx.now,
    });
    return inProject(ctx, input.projectId, applicationId, () =>
      withClaim(ctx, 'appName', appName, applicationId, () =>
        withDeployToken(ctx, applicationAggregate, applicationId, null, token, async () => {
          const { after } = await ctx.execute(applicationAggregate, applicationId, { type: 'CreateApplication', data });
          return ctx.view(applicationAggregate, after);
        })), () => removeApplication(applicationId, ctx));
  },
  one: async (input, ctx) => ({
    ...(await ctx.one(applicationAggregate, input.applicationId)),
    ...(await childrenOf(input.applicationId, ctx)),
    deployments: await ctx.list(deploymentAggregate, 'applicationId', input.applicationId),
  }),
  update: (input, ctx) => updateApplication(input, ctx),
  delete: (input, ctx) => removeApplication(input.applicationId, ctx),
  saveEnvironment: act(async (input, ctx) => {
    const current = await ctx.mustLoad(applicationAggregate, input.applicationId, 'applicationId');
    return { type: 'SaveEnvironment', data: { ...input, env: sealedEnv(ctx, input.env, current.env) } };
  }),
  saveBuildType: act((input) => ({
    type: 'SaveBuildType', data: { ...input, buildType: input.buildType as BuildType },
  })),
  saveForgeProvider: act((input) => ({ type: 'SaveForgeProvider', data: input })),
  saveContainerProvider: act(async (input, ctx) => {
    const current = await ctx.mustLoad(applicationAggregate, input.applicationId, 'applicationId');
    return { type: 'SaveContainerProvider', data: { ...input, password: sealedOrNull(ctx, input.password, current.password) } };
  }),
  saveGitProdiver: act(async (input, ctx) => {
    const current = await ctx.mustLoad(applicationAggregate, input.applicationId, 'applicationId');
    return { type: 'SaveGitProvider', data: { ...input, customGitUrl: recordedGitUrl(ctx, input.customGitUrl, current.customGitUrl) } };
  }),
  generateSSHKey: act((input, ctx) => {
    const { publicKey, privateKey } = generateSshKeyPair();
    return {
      type: 'GenerateSSHKey',
      data: { applicationId: input.applicationId, customGitSSHKey: publicKey, sshPrivateKey: ctx.secrets.seal(privateKey) },
    };
  }),
  removeSSHKey: act((input) => ({ type: 'RemoveSSHKey', data: input })),
  refreshToken: refreshedToken(applicationAggregate, (refreshToken) => act((input) => ({ type: 'RefreshToken', data: { applicationId: input.applicationId, refreshToken } }))),
  markRunning: act((input) => ({ type: 'MarkRunning', data: input })),
  updateProxyConfig: (input, ctx) =>
    withProxyNames(input.applicationId, input.proxyConfig, ctx, (replacing, proxyConfig) =>
      act((data: typeof input) => ({ type: 'UpdateProxyConfig', data: { ...data, proxyConfig, replacing } }))(input, ctx)),
  ...applicationRuntime,
  readProxyConfig: async (input, ctx) => {
    const current = await ctx.mustLoad(applicationAggregate, input.applicationId, 'applicationId');
    return readProxyFile(ctx.infra.config.proxyDir, current.appName);
  },
  // Asked by runtime name, of any kind of service.
  readAppMonitoring: (input, ctx) => appMonitoring(input.appName, ctx),
};
