// A forge repository as a git source: cloned over https with an installation token the forge
// issues for this clone (the token travels in git's environment, never in a URL or the log).
import { forgeAppOf } from '@berth/shared/domain/forge/forge';
import { ForgeError } from '@berth/shared/ports/forge';
import type { DeployerDeps } from './deps.ts';
import { DeploymentFailure } from './env.ts';
import type { GitSource } from './source-git.ts';

export interface ForgeRepository {
  readonly owner: string;
  readonly repository: string;
  readonly branch: string | null;
}

export const forgeGitSource = (deps: DeployerDeps, log: (line: string) => void, { owner, repository, branch }: ForgeRepository) =>
  async (): Promise<GitSource> => {
    const settings = await deps.records.forgeApp();
    if (!settings) throw new DeploymentFailure('the forge integration is not configured on this Berth (admin.saveForgeApp)');
    const forgeApp = forgeAppOf(settings, (sealed) => deps.secrets.open(sealed));
    try {
      log(`Asking the forge at ${forgeApp.apiUrl} for an installation token`);
      const token = await deps.forge.installationToken(forgeApp);
      const { url } = await deps.forge.repository(forgeApp, token, owner, repository);
      return { url, branch, sshKey: null, basicAuth: { user: 'x-access-token', password: token } };
    } catch (error) {
      if (error instanceof ForgeError) throw new DeploymentFailure(error.message);
      throw error;
    }
  };
