// Turns a deployment's source into a local image under the deployment's own tag: a pulled (or
// local) container image re-tagged, or a build of the fetched git source.
import { join } from 'node:path';
import type { Application } from '@berth/shared/domain/application/record';
import type { RegistryAuth } from '@berth/shared/ports/container-engine';
import type { DeploymentWork } from './work.ts';
import type { DeployerDeps } from './deps.ts';
import { DeploymentFailure } from './env.ts';
import { buildImage } from './build.ts';
import { DEFAULT_REGISTRY } from '@berth/shared/domain/registry/registry-url';
import { hostOf, localRepository } from './images.ts';
import { othersImageReason } from '@berth/shared/domain/ownership';
import { isUnavailable } from '@berth/shared/ports/unavailable';
import { fetchGit, type GitSource } from './source-git.ts';
import { forgeGitSource } from './source-forge.ts';
import { messageOf } from '@berth/shared/errors';

export interface Produced {
  readonly revision: string | null;
}

function pullAuth(deps: DeployerDeps, app: Application, reference: string): RegistryAuth | undefined {
  if (!app.username || !app.password) return undefined;
  return { username: app.username, password: deps.secrets.open(app.password), serveraddress: hostOf(reference) ?? DEFAULT_REGISTRY };
}

/**
 * Whether a registry's answer says it holds the image and refused the caller: always when it asks
 * for a login or refuses one; a bare "denied" (Docker Hub's answer for a repository it has not, too)
 * only when a login was given.
 */
const refusedLogin = (reason: string, withLogin: boolean) =>
  /unauthorized|authentication required|no basic auth credentials|incorrect username or password/i.test(reason) || (withLogin && /denied/i.test(reason));

async function fromContainerImage(deps: DeployerDeps, work: DeploymentWork, tag: string): Promise<Produced> {
  const reference = work.application.containerImage;
  if (!reference) throw new DeploymentFailure('the application has no container image set (saveContainerProvider)');
  work.log(`Pulling ${reference}`);
  const auth = pullAuth(deps, work.application, reference);
  try {
    await deps.engine.pullImage(reference, auth, work.log, work.signal);
  } catch (error) {
    work.signal.throwIfAborted();
    // An engine that cannot be reached has no local copy to offer either: asking it would wait once more.
    if (isUnavailable(error)) throw error;
    const reason = messageOf(error);
    const failed = `the image ${reference} could not be pulled: ${reason}`;
    // The registry holds it and refused this login (or asks for one): the engine's copy is someone else's to run.
    if (refusedLogin(reason, auth !== undefined)) throw new DeploymentFailure(failed);
    const labels = await deps.engine.imageLabels(reference);
    if (labels === null) throw new DeploymentFailure(failed);
    const others = othersImageReason(reference, labels, work.application.applicationId, localRepository(work.application));
    if (others !== null) throw new DeploymentFailure(`${failed}; and the engine's copy of ${others}`);
    work.log(`Pull failed (${reason}); using the engine's local image ${reference}`);
  }
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
  await buildImage(deps.engine, app, { sourceDir: fetched.dir, buildPath, tag, signal: work.signal, log: work.log });
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
