// `customGitSSHKey` given on update, for any service with a git SSH key (the same rule as
// `application.update`): the field shows the public half, the private key is kept sealed and hidden.
import type { Sealed } from '@berth/shared/crypto/secrets';
import { sshPublicKeyOf } from '@berth/shared/crypto/ssh-public-key';
import { badRequest } from '@berth/shared/errors';
import type { Context } from '../context.ts';
import { resealed } from './secret-update.ts';

export interface GitSshKey {
  customGitSSHKey: string | null;
  sshPrivateKey: Sealed | null;
}

/**
 * Null removes the key; the public key the record already shows (a client sending the record
 * back) changes nothing; any other value is a private key the user brings.
 */
export function sshKeyChange(ctx: Context, given: string | null | undefined, current: GitSshKey): Partial<GitSshKey> {
  if (given === undefined || given === current.customGitSSHKey) return {};
  if (given === null) return { customGitSSHKey: null, sshPrivateKey: null };
  const publicKey = sshPublicKeyOf(given);
  if (publicKey === null) {
    throw badRequest('customGitSSHKey',
      'must be an unencrypted PEM private key (ed25519, RSA or ECDSA); the OpenSSH private key format is not read');
  }
  return { customGitSSHKey: publicKey, sshPrivateKey: resealed(ctx, current.sshPrivateKey, given) };
}
