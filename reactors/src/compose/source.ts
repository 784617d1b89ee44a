// The compose file a deployment brings up: the stored text (`raw`), or the file at `composePath`
// of the cloned repository (`git`, or `forge` with an installation token). A file that cannot be deployed fails the deployment, saying why.
import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { realpathSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { composeFileProblem } from '@berth/shared/domain/compose/compose-file';
import type { Compose } from '@berth/shared/domain/compose/compose';
import { DeploymentFailure } from '../deployer/env.ts';
import { fetchGit, type GitSource } from '../deployer/source-git.ts';
import { forgeGitSource } from '../deployer/source-forge.ts';
import { foundInRepository, insideRepository } from '../deployer/repository-path.ts';
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

/** The repository a `git` or `forge` compose service is cloned from. */
function gitSourceOf(deps: ComposeDeps, compose: Compose, work: ComposeWork): GitSource | (() => Promise<GitSource>) {
  if (compose.sourceType === 'forge') {
    const { owner, repository, branch } = compose;
    if (!owner || !repository) throw new DeploymentFailure('the compose service has no forge repository set (owner, repository)');
    return forgeGitSource(deps, work.log, { owner, repository, branch });
  }
  if (!compose.customGitUrl) throw new DeploymentFailure('the compose service has no git URL set (customGitUrl)');
  return { url: compose.customGitUrl, branch: compose.customGitBranch, sshKey: compose.sshPrivateKey };
}

/**
 * What the checkout was fetched from, as a digest (the URL may carry a sealed credential): a
 * redeploy reuses the last fetch only while the source is the one it was fetched from.
 */
const sourceIdentity = ({ sourceType, customGitUrl, customGitBranch, owner, repository, branch }: Compose) =>
  createHash('sha256').update(JSON.stringify([sourceType, customGitUrl, customGitBranch, owner, repository, branch])).digest('hex');

/** Whether the last checkout was fetched from another source than the service's now (unknown for one made before the stamp: kept). */
async function sourceChanged(stamp: string, identity: string): Promise<boolean> {
  const fetchedFrom = await readFile(stamp, 'utf8').catch(() => null);
  return fetchedFrom !== null && fetchedFrom !== identity;
}

async function fromGit(deps: ComposeDeps, compose: Compose, work: ComposeWork): Promise<FetchedCompose> {
  const into = join(deps.settings.sourcesDir, compose.appName);
  const stamp = join(into, SOURCE_STAMP);
  const identity = sourceIdentity(compose);
  const changed = work.kind === 'redeploy' && await sourceChanged(stamp, identity);
  if (changed) work.log('The source changed since the last fetch: fetching it again');
  const fetched = await fetchGit(
    gitSourceOf(deps, compose, work),
    into,
    // In place: a project's binds into its folder (`./data`) keep their data from one deploy to the next.
    { refetch: work.kind !== 'redeploy' || changed, inPlace: true, secrets: deps.secrets, signal: work.signal, log: work.log },
  );
  await writeFile(stamp, identity);
  const file = await composeFileIn(fetched.dir, compose);
  return { dir: fetched.dir, file, text: await readFile(file, 'utf8'), revision: fetched.revision };
}

/** The stored text, written where the compose tool reads it. */
async function fromRaw(deps: ComposeDeps, compose: Compose): Promise<FetchedCompose> {
  const file = rawFile(deps, compose);
  const dir = dirname(file);
  await mkdir(dir, { recursive: true });
  await writeFile(file, compose.composeFile);
  return { dir, file, text: compose.composeFile, revision: null };
}

export async function fetchComposeFile(deps: ComposeDeps, compose: Compose, work: ComposeWork): Promise<FetchedCompose> {
  let fetched: FetchedCompose;
  switch (compose.sourceType) {
    case 'raw': fetched = await fromRaw(deps, compose); break;
    case 'git': case 'forge': fetched = await fromGit(deps, compose, work); break;
  }
  const problem = fetched.text.trim() === '' ? 'is empty: there is nothing to deploy' : composeFileProblem(fetched.text);
  if (problem) throw new DeploymentFailure(`the compose file ${compose.sourceType === 'raw' ? '' : `${compose.composePath} `}${problem}`);
  return fetched;
}

/**
 * A file the compose file names by a path from its own folder, as the compose tools read it:
 * resolved inside the repository, or null when there is none; a path out of it fails, saying so.
 */
export function besideTheFile(fetched: FetchedCompose, path: string): string | null {
  // Both resolved (links and all), so that a data folder reached through a link keeps the one under the other.
  const folder = relative(realpathSync(fetched.dir), realpathSync(dirname(fetched.file)));
  return foundInRepository(fetched.dir, join(folder, path), 'file');
}

/** The compose file at `composePath` of the repository cloned into `dir`, resolved inside it. */
const composeFileIn = (dir: string, compose: Compose) => insideRepository(dir, compose.composePath || 'docker-compose.yml', 'compose file');

/** Beside the checkout: the identity of the source it was fetched from. */
const SOURCE_STAMP = 'source.fetched-from';

const rawFile = (deps: ComposeDeps, compose: Compose) => join(deps.settings.sourcesDir, compose.appName, 'raw', 'docker-compose.yml');
