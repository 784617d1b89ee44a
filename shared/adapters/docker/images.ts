// Images: build from a folder, pull, tag, push, and registry logins.
import { spawn } from 'node:child_process';
import type Docker from 'dockerode';
import type { BuildRequest, RegistryAuth } from '../../ports/container-engine.ts';
import { answered, engineError, followStream, foundBy, fromEngine, inspectedOrNull, isNotFound } from './progress.ts';
import { pathName } from './names.ts';
import { containerGone, watchSteps } from './build-steps.ts';

/** `repo[:tag]` split where the tag starts (a registry's `host:port/` is not a tag). */
export function splitReference(reference: string): { repo: string; tag: string } {
  const slash = reference.lastIndexOf('/');
  const colon = reference.lastIndexOf(':');
  return colon > slash ? { repo: reference.slice(0, colon), tag: reference.slice(colon + 1) } : { repo: reference, tag: 'latest' };
}

/**
 * Whether the engine still answers, bounded as a short call: asked of a progress stream gone silent.
 * dockerode honours abortSignal on a ping; its typings take no options.
 */
const pinged = (docker: Docker) => (stop: AbortSignal): Promise<unknown> => {
  const ping = docker.ping.bind(docker) as unknown as (options: { abortSignal: AbortSignal }) => Promise<unknown>;
  return answered((bound) => ping({ abortSignal: AbortSignal.any([bound, stop]) }));
};

export async function buildImage(docker: Docker, request: BuildRequest): Promise<void> {
  // The context goes to the engine as a tar stream of the folder, as the engine's own CLI sends it.
  const tar = spawn('tar', ['-c', '-C', request.contextDir, '.'], { stdio: ['ignore', 'pipe', 'ignore'] });
  const steps = watchSteps(request.onLine, request.onStepImage);
  try {
    await followStream((abortSignal) => docker.buildImage(tar.stdout as never, {
      t: request.tag, dockerfile: request.containerfile, rm: true, forcerm: true,
      ...(request.labels && { labels: { ...request.labels } }),
      abortSignal,
    }), { onLine: steps.onLine, signal: request.signal, alive: pinged(docker) });
  } catch (error) {
    if (!request.signal?.aborted) throw engineError(error);
    // A failed step's container is gone before the engine reports the failure; a cancelled one's goes just after.
    const running = steps.running();
    if (running) await containerGone(docker, running);
    throw error;
  } finally {
    tar.kill();
  }
}

/** Pulls the image; `signal` (a deployment's cancellation) ends the pull at once, throwing its reason. */
export async function pullImage(docker: Docker, reference: string, auth?: RegistryAuth, onLine?: (line: string) => void, signal?: AbortSignal): Promise<void> {
  try {
    // A digest names the image exactly; otherwise the tag defaults to latest, as the engine's CLI does.
    const { repo, tag } = splitReference(reference);
    const name = reference.includes('@') ? reference : `${repo}:${tag}`;
    await followStream((abortSignal) => docker.pull(name, { ...(auth && { authconfig: auth }), abortSignal }),
      { onLine, signal, alive: pinged(docker) });
  } catch (error) {
    throw signal?.aborted ? error : engineError(error);
  }
}

/** Pushes the image; `signal` (a deployment's cancellation) ends the push at once, throwing its reason. */
export async function pushImage(docker: Docker, reference: string, auth: RegistryAuth, onLine?: (line: string) => void, signal?: AbortSignal): Promise<void> {
  try {
    const { repo, tag } = splitReference(reference);
    const image = docker.getImage(pathName('image', repo));
    await followStream((abortSignal) => image.push({ tag, authconfig: auth, abortSignal }), { onLine, signal, alive: pinged(docker) });
  } catch (error) {
    throw signal?.aborted ? error : engineError(error);
  }
}

export async function tagImage(docker: Docker, source: string, target: string): Promise<void> {
  const { repo, tag } = splitReference(target);
  try {
    await docker.getImage(pathName('image', source)).tag({ repo, tag });
  } catch (error) {
    throw engineError(error);
  }
}

export const imageExists = (docker: Docker, reference: string): Promise<boolean> =>
  foundBy(() => answered(() => docker.getImage(pathName('image', reference)).inspect()));

export async function imageTags(docker: Docker, name: string): Promise<string[]> {
  const images = await fromEngine((abortSignal) => docker.listImages({ filters: { reference: [name] }, abortSignal }));
  return images.flatMap((image) => image.RepoTags ?? []).filter((tag) => tag.startsWith(`${name}:`));
}

export async function labelledImageTags(docker: Docker, label: string): Promise<string[]> {
  const images = await fromEngine((abortSignal) => docker.listImages({ filters: { label: [label] }, abortSignal }));
  // Older engines answer `<none>:<none>` for an untagged image: no tag to remove it by.
  return images.flatMap((image) => image.RepoTags ?? []).filter((tag) => tag !== '<none>:<none>');
}

export async function removeImage(docker: Docker, reference: string): Promise<void> {
  try {
    await docker.getImage(pathName('image', reference)).remove({ force: true });
  } catch (error) {
    if (!isNotFound(error)) throw engineError(error);
  }
}

export async function removeUnusedImage(docker: Docker, imageId: string, options: { withParents?: boolean } = {}): Promise<boolean> {
  const image = docker.getImage(pathName('image', imageId));
  const found = await inspectedOrNull(() => image.inspect());
  // Removed by its id, a tagged image would lose its tag and go: one with a name is someone's.
  if (!found || (found.RepoTags ?? []).length > 0 || (found.RepoDigests ?? []).length > 0) return false;
  try {
    // noprune: its untagged parents are for the caller to weigh, each on its own (unless told they go with it).
    await image.remove({ noprune: !options.withParents });
    return true;
  } catch (error) {
    // 409: an image is built on it or a container runs from it (the engine's refusal, without force).
    if (isNotFound(error) || (error as { statusCode?: number }).statusCode === 409) return false;
    throw engineError(error);
  }
}

export async function imageLabels(docker: Docker, reference: string): Promise<Record<string, string> | null> {
  const image = await inspectedOrNull(() => docker.getImage(pathName('image', reference)).inspect());
  return image && (image.Config?.Labels ?? {});
}

export async function checkAuth(docker: Docker, auth: RegistryAuth): Promise<void> {
  try {
    await docker.checkAuth(auth);
  } catch (error) {
    throw engineError(error);
  }
}
