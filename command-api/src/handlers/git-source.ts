// Where a service's customGitUrl is taken (application.saveGitProdiver and update, compose.update):
// one rule for all of them, so none can forget it.
import { isSealed } from '@berth/shared/crypto/secrets';
import { isLocalGitUrl } from '@berth/shared/domain/git-url';
import { forbidden } from '@berth/shared/errors';
import type { Context } from '../context.ts';
import { sealedGitUrl } from './secret-update.ts';

/**
 * The git URL to record for `given` (left out stays, as `sealedGitUrl` says). FORBIDDEN to any
 * account but an admin when it names a repository on this host (isLocalGitUrl), which would clone
 * what Berth's own user reads there, other services' checkouts included; the one already recorded
 * (an admin's) may be sent back unchanged. Called before anything is appended, so a refusal appends nothing.
 */
export function recordedGitUrl(ctx: Context, given: string | null | undefined, stored: unknown) {
  if (given && !ctx.seesAll && isLocalGitUrl(given) && given !== (isSealed(stored) ? ctx.secrets.open(stored) : stored)) {
    throw forbidden('A git source on the Berth host (a path or a file: URL) may be saved only by an admin');
  }
  return sealedGitUrl(ctx, given, stored);
}
