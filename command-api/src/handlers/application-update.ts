// `application.update`: any field of the record, each checked the way its own operation checks it.
import type { contract } from '@berth/shared/contract/index';
import type { InputOf } from '@berth/shared/contract/operation';
import {
  applicationAggregate, type ApplicationCommand,
} from '@berth/shared/domain/application/application';
import { registryAggregate } from '@berth/shared/domain/registry/registry';
import { badRequest } from '@berth/shared/errors';
import { reservedLabelsIn } from '@berth/shared/domain/ownership';
import type { Context } from '../context.ts';
import { renaming, withAppName } from './app-name.ts';
import { mayMoveTo, movingProject } from './project-use.ts';
import { REGISTRY_USE } from './registry.ts';
import { moveUse, mustBeUsable } from './reservations.ts';
import { chosenToken, sealedEnv, sealedOrNull } from './secret-update.ts';
import { recordedGitUrl } from './git-source.ts';
import { mayTakeToken, withDeployToken } from '../deploy-token.ts';
import { sshKeyChange } from './ssh-key-update.ts';
import { otherServices } from './other-services.ts';
import { mustNotBeNamedInOthers } from '@berth/shared/domain/application/proxy-config';
import { mustNotJoinEngineNetworks } from '@berth/shared/domain/application/engine-networks';
import { serviceNamed } from '@berth/shared/domain/runtime-name';
import { mustKeepCreatedAt } from './created-at.ts';
import { publishesOnHost } from './host-ports.ts';
import { mustNotStartFirstOnHostPorts, startFirstRollout } from '@berth/shared/domain/application/host-port-rollout';

/**
 * BAD_REQUEST naming networkOrch when an alias the application would take on a network is the
 * name of another Berth service the caller does not manage: on a network shared with it (the
 * proxy's, say), the resolver would answer the alias too, and send part of that service's traffic
 * here. An admin manages every service.
 */
async function mustNotImpersonate(ctx: Context, applicationId: string, networks: UpdateInput['networkOrch']): Promise<void> {
  const aliases = (networks ?? []).flatMap((network) => network.Aliases ?? []);
  if (aliases.length === 0 || ctx.seesAll) return;
  const services = await otherServices(ctx, applicationId);
  for (const alias of aliases) {
    const service = serviceNamed(alias, services);
    if (service && !service.managed) {
      throw badRequest('networkOrch', `names the alias ${alias}, which is ${service.appName}, another Berth service this account does not manage`);
    }
  }
}

type UpdateInput = InputOf<typeof contract.application.update>;

export async function updateApplication(input: UpdateInput, ctx: Context) {
  // Read to change: its claims are decided from this record, so a change made meanwhile refuses this one.
  const current = await ctx.readToChange(applicationAggregate, input.applicationId, 'applicationId');
  // References are checked when they change: a record sent back as it was is not refused.
  if (input.registryId != null && input.registryId !== current.registryId) {
    await ctx.mustLoad(registryAggregate, input.registryId, 'registryId');
    await mustBeUsable(ctx, 'registry', input.registryId, input.applicationId, REGISTRY_USE);
  }
  // For admins too: Berth does not run a service in the host's network namespace through this field.
  mustNotJoinEngineNetworks(input.networkOrch);
  await mustNotImpersonate(ctx, input.applicationId, input.networkOrch);
  // The ports are read only for a save that asks for start-first.
  if (startFirstRollout(input)) mustNotStartFirstOnHostPorts(input, await publishesOnHost(ctx, input.applicationId));
  const reserved = reservedLabelsIn(input.labelsOrch ?? {});
  if (reserved.length > 0) {
    throw badRequest('labelsOrch', `may not set ${reserved.join(', ')}: Berth and the engine find services by labels under "berth.", "com.docker.stack.", "com.docker.compose." and "com.docker.swarm."`);
  }
  mustKeepCreatedAt(input.createdAt, current.createdAt);
  const { applicationId, createdAt: _createdAt, password, refreshToken, customGitSSHKey, ...fields } = input;
  const command: ApplicationCommand = {
    type: 'UpdateApplication',
    data: {
      ...fields,
      env: sealedEnv(ctx, fields.env, current.env),
      password: sealedOrNull(ctx, password, current.password),
      customGitUrl: recordedGitUrl(ctx, fields.customGitUrl, current.customGitUrl),
      // A deploy token chosen by the caller is kept sealed like a generated one, so pushes find it.
      refreshToken: chosenToken(ctx, refreshToken, current.refreshToken),
      ...sshKeyChange(ctx, customGitSSHKey, current),
      applicationId,
    },
  };
  // Every claim is checked before the first is taken, so a refusal appends nothing.
  await mayMoveTo(ctx, current.projectId, input.projectId, applicationId);
  await mayTakeToken(ctx, applicationAggregate, applicationId, current.refreshToken, refreshToken);
  const renamed = await renaming(ctx, current.appName, input.appName, applicationId);
  // Read from the read models: a configuration saved at the same moment is not seen.
  if (renamed !== undefined) mustNotBeNamedInOthers(renamed, await otherServices(ctx, applicationId));
  // The registry and the project count the application among their users in the log, so neither can be removed meanwhile.
  return withDeployToken(ctx, applicationAggregate, applicationId, current.refreshToken, refreshToken, () =>
    withAppName(ctx, current.appName, renamed, applicationId, () =>
      moveUse(ctx, 'registry', current.registryId, input.registryId, applicationId, REGISTRY_USE, () =>
        movingProject(ctx, current.projectId, input.projectId, applicationId, async () => {
          const { after } = await ctx.execute(applicationAggregate, applicationId, command);
          return ctx.view(applicationAggregate, after);
        }))));
}
