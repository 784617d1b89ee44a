// `application.update`: any field of the record, each checked the way its own operation checks it.
import type { contract } from '@berth/shared/contract/index';
import type { InputOf } from '@berth/shared/contract/operation';
import type { Sealed } from '@berth/shared/crypto/secrets';
import { sshPublicKeyOf } from '@berth/shared/crypto/ssh-public-key';
import {
  applicationAggregate, type Application, type ApplicationCommand,
} from '@berth/shared/domain/application/application';
import type { BuildType, SourceType } from '@berth/shared/domain/application/record';
import { projectAggregate } from '@berth/shared/domain/project/project';
import { registryAggregate } from '@berth/shared/domain/registry/registry';
import type { Status } from '@berth/shared/contract/schema';
import { badRequest } from '@berth/shared/errors';
import type { Context } from '../context.ts';
import { withAppName } from './app-name.ts';
import { resealed } from './secret-update.ts';

type UpdateInput = InputOf<typeof contract.application.update>;

/** A nullable secret as given: left out stays, null or empty clears, a value is stored sealed. */
export const sealedOrNull = (ctx: Context, given: string | null | undefined, stored: Sealed | null) =>
  given === undefined ? undefined : given ? resealed(ctx, stored, given) : null;

/**
 * `customGitSSHKey` given on update is a private key the user brings: its public half is shown,
 * the key itself is kept sealed and hidden. Null removes the key; the public key the record
 * already shows (a client sending the record back) changes nothing.
 */
function sshKeyChange(ctx: Context, given: string | null | undefined, current: Application): Partial<Application> {
  if (given === undefined || given === current.customGitSSHKey) return {};
  if (given === null) return { customGitSSHKey: null, sshPrivateKey: null };
  const publicKey = sshPublicKeyOf(given);
  if (publicKey === null) {
    throw badRequest('customGitSSHKey',
      'must be an unencrypted PEM private key (ed25519, RSA or ECDSA); the OpenSSH private key format is not read');
  }
  return { customGitSSHKey: publicKey, sshPrivateKey: resealed(ctx, current.sshPrivateKey, given) };
}

export async function updateApplication(input: UpdateInput, ctx: Context) {
  const current = await ctx.mustLoad(applicationAggregate, input.applicationId, 'applicationId');
  // References are checked when they change: a record sent back as it was is not refused.
  if (input.projectId !== undefined && input.projectId !== current.projectId) {
    await ctx.mustLoad(projectAggregate, input.projectId, 'projectId');
  }
  if (input.registryId != null && input.registryId !== current.registryId) {
    await ctx.mustLoad(registryAggregate, input.registryId, 'registryId');
  }
  // createdAt is when the record was made, not a setting: it is ignored, as the id is.
  const { applicationId, createdAt: _createdAt, password, customGitSSHKey, ...fields } = input;
  const command: ApplicationCommand = {
    type: 'UpdateApplication',
    data: {
      ...fields,
      // The contract checks these against their lists; its schema helper leaves the type open.
      sourceType: fields.sourceType as SourceType | undefined,
      buildType: fields.buildType as BuildType | undefined,
      applicationStatus: fields.applicationStatus as Status | undefined,
      password: sealedOrNull(ctx, password, current.password),
      ...sshKeyChange(ctx, customGitSSHKey, current),
      applicationId,
    },
  };
  return withAppName(ctx, current.appName, input.appName, applicationId, async () => {
    const { after } = await ctx.execute(applicationAggregate, applicationId, command);
    return ctx.view(applicationAggregate, after);
  });
}
