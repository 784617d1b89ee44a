// Turns a deployment's source into a local image under the deployment's own tag: a pulled (or
// local) container image re-tagged, or a build of the fetched git source.
import { join } from 'node:path';
import type { DeploymentWork } from './work.ts';
import type { DeployerDeps } from './deps.ts';
import { DeploymentFailure } from './env.ts';
import { buildImage } from './build.ts';
import { pullAsApp } from './image-access.ts';
import { fetchGit, type GitSource } from './source-git.ts';
import { forgeGitSource } from './source-forge.ts';

export interface Produced {
  readonly revision: string | null;
}

async function fromContainerImage(deps: DeployerDeps, work: DeploymentWork, tag: string): Promise<Produced> {
  const reference = work.application.containerImage;
  if (!reference) throw new DeploymentFailure('the application has no container image set (saveContainerProvider)');
  work.log(`Pulling ${reference}`);
  await pullAsApp(deps, work.application, reference, work);
  await deps.engine.tagImage(reference, tag);
  return { revision: null };
}

async function fromGit(deps: DeployerDeps, work: DeploymentWork, tag: string): Promise<Produced> {
  const app = work.application;
  if (!app.customGitUrl) throw new DeploymentFailure('the application has no git URL set (saveGitProdiver)');
  const url = app.customGitUrl;
  return fetchAndBuild(deps, work, tag, async () => ({ url, branch: app.customGitBranch, sshKey: app.sshPrivateKey }), app.customGitBuildPath);
}

/** A forge repository: cloned over https with an installation token the forge issues for this clone. */
async function fromForge(deps: DeployerDeps, work: DeploymentWork, tag: string): Promise<Produced> {
  const { owner, repository, branch, buildPath } = work.application;
  if (!owner || !repository) throw new DeploymentFailure('the application has no forge repository set (saveForgeProvider)');
  return fetchAndBuild(deps, work, tag, forgeGitSource(deps, work.log, { owner, repository, branch }), buildPath);
}

async function fetchAndBuild(deps: DeployerDeps, work: DeploymentWork, tag: string, source: () => Promise<GitSource>, buildPath: string | null): Promise<Produced> {
  const app = work.application;
  const fetched = await fetchGit(source, join(deps.settings.sourcesDir, app.appName),
    { refetch: work.kind !== 'redeploy', secrets: deps.secrets, signal: work.signal, log: work.log });
  await buildImage(deps, app, { sourceDir: fetched.dir, buildPath, tag, signal: work.signal, log: work.log });
  return { revision: fetched.revision };
}

/** Fetches and builds (or pulls) the application's source into the image `tag`. */
export async function produceImage(deps: DeployerDeps, work: DeploymentWork, tag: string): Promise<Produced> {
  switch (work.application.sourceType) {
    case 'container': return fromContainerImage(deps, work, tag);
    case 'git': return fromGit(deps, work, tag);
    case 'forge': return fromForge(deps, work, tag);
  }
}
