// `application.update`: any field of the record, each checked the way its own operation checks it.
import type { contract } from '@berth/shared/contract/index';
import type { InputOf } from '@berth/shared/contract/operation';
import {
  applicationAggregate, type ApplicationCommand,
} from '@berth/shared/domain/application/application';
import { projectAggregate } from '@berth/shared/domain/project/project';
import { registryAggregate } from '@berth/shared/domain/registry/registry';
import { badRequest } from '@berth/shared/errors';
import type { Context } from '../context.ts';
import { withAppName } from './app-name.ts';
import { REGISTRY_USE } from './registry.ts';
import { moveUse } from './reservations.ts';
import { chosenToken, sealedOrNull } from './secret-update.ts';
import { withDeployToken } from '../deploy-token.ts';
import { sshKeyChange } from './ssh-key-update.ts';
import { otherServices } from './other-services.ts';
import { serviceNamed } from '@berth/shared/domain/runtime-name';
import { mustKeepCreatedAt } from './created-at.ts';

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
  const current = await ctx.mustLoad(applicationAggregate, input.applicationId, 'applicationId');
  // References are checked when they change: a record sent back as it was is not refused.
  if (input.projectId !== undefined && input.projectId !== current.projectId) {
    await ctx.mustLoad(projectAggregate, input.projectId, 'projectId');
  }
  if (input.registryId != null && input.registryId !== current.registryId) {
    await ctx.mustLoad(registryAggregate, input.registryId, 'registryId');
  }
  await mustNotImpersonate(ctx, input.applicationId, input.networkOrch);
  mustKeepCreatedAt(input.createdAt, current.createdAt);
  const { applicationId, createdAt: _createdAt, password, refreshToken, customGitSSHKey, ...fields } = input;
  const command: ApplicationCommand = {
    type: 'UpdateApplication',
    data: {
      ...fields,
      password: sealedOrNull(ctx, password, current.password),
      // A deploy token chosen by the caller is kept sealed like a generated one, so pushes find it.
      refreshToken: chosenToken(ctx, refreshToken, current.refreshToken),
      ...sshKeyChange(ctx, customGitSSHKey, current),
      applicationId,
    },
  };
  // The registry counts the application among its users in the log, so it cannot be removed meanwhile.
  return withDeployToken(ctx, applicationAggregate, applicationId, current.refreshToken, refreshToken, () =>
    withAppName(ctx, current.appName, input.appName, applicationId, () =>
      moveUse(ctx, 'registry', current.registryId, input.registryId, applicationId, REGISTRY_USE, async () => {
        const { after } = await ctx.execute(applicationAggregate, applicationId, command);
        return ctx.view(applicationAggregate, after);
      })), true);
}
