// The compose file a deployment brings up: the stored text (`raw`), or the file at `composePath`
// of the cloned repository (`git`). A file that cannot be deployed fails the deployment, saying why.
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, normalize } from 'node:path';
import { composeFileProblem } from '@berth/shared/domain/compose/compose-file';
import type { Compose } from '@berth/shared/domain/compose/compose';
import { DeploymentFailure } from '../deployer/env.ts';
import { fetchGit } from '../deployer/source-git.ts';
import type { ComposeDeps } from './deps.ts';
import type { ComposeWork } from './work.ts';

export interface FetchedCompose {
  /** The folder the file's relative paths (build contexts, binds, env files) start from. */
  readonly dir: string;
  /** The file on disk, for the compose tool. */
  readonly file: string;
  readonly text: string;
  readonly revision: string | null;
}

/** `composePath` inside the folder; one that climbs out of it is refused. */
function inside(dir: string, composePath: string): string {
  const relative = normalize(composePath || 'docker-compose.yml').replace(/^\/+/, '');
  if (relative.startsWith('..')) throw new DeploymentFailure(`the compose path "${composePath}" leaves the repository`);
  return join(dir, relative);
}

async function fromGit(deps: ComposeDeps, compose: Compose, work: ComposeWork): Promise<FetchedCompose> {
  if (!compose.customGitUrl) throw new DeploymentFailure('the compose service has no git URL set (customGitUrl)');
  const fetched = await fetchGit(
    { url: compose.customGitUrl, branch: compose.customGitBranch, sshKey: compose.sshPrivateKey },
    join(deps.settings.sourcesDir, compose.appName),
    { refetch: work.kind !== 'redeploy', secrets: deps.secrets, signal: work.signal, log: work.log },
  );
  const file = inside(fetched.dir, compose.composePath);
  if (!existsSync(file)) throw new DeploymentFailure(`the compose file ${compose.composePath} is not in the repository`);
  return { dir: fetched.dir, file, text: await readFile(file, 'utf8'), revision: fetched.revision };
}

/** The stored text, written where the compose tool reads it. */
async function fromRaw(deps: ComposeDeps, compose: Compose): Promise<FetchedCompose> {
  const file = lastFetchedFile(deps, compose);
  const dir = dirname(file);
  await mkdir(dir, { recursive: true });
  await writeFile(file, compose.composeFile);
  return { dir, file, text: compose.composeFile, revision: null };
}

export async function fetchComposeFile(deps: ComposeDeps, compose: Compose, work: ComposeWork): Promise<FetchedCompose> {
  let fetched: FetchedCompose;
  switch (compose.sourceType) {
    case 'raw': fetched = await fromRaw(deps, compose); break;
    case 'git': fetched = await fromGit(deps, compose, work); break;
    case 'forge': throw new DeploymentFailure('the forge integration is not configured on this Berth (admin forge settings)');
  }
  const problem = fetched.text.trim() === '' ? 'is empty: there is nothing to deploy' : composeFileProblem(fetched.text);
  if (problem) throw new DeploymentFailure(`the compose file ${compose.sourceType === 'raw' ? '' : `${compose.composePath} `}${problem}`);
  return fetched;
}

/** Where the last deploy left the file (stop and delete run the compose tool on it). */
export const lastFetchedFile = (deps: ComposeDeps, compose: Compose): string => compose.sourceType === 'git'
  ? inside(join(deps.settings.sourcesDir, compose.appName, 'source'), compose.composePath)
  : join(deps.settings.sourcesDir, compose.appName, 'raw', 'docker-compose.yml');
