// Images: build from a folder, pull, tag, push, and registry logins.
import { spawn } from 'node:child_process';
import type Docker from 'dockerode';
import type { BuildRequest, RegistryAuth } from '../../ports/container-engine.ts';
import { answered, engineError, followProgress, foundBy, fromEngine, inspectedOrNull, isNotFound } from './progress.ts';
import { pathName } from './names.ts';

/** `repo[:tag]` split where the tag starts (a registry's `host:port/` is not a tag). */
export function splitReference(reference: string): { repo: string; tag: string } {
  const slash = reference.lastIndexOf('/');
  const colon = reference.lastIndexOf(':');
  return colon > slash ? { repo: reference.slice(0, colon), tag: reference.slice(colon + 1) } : { repo: reference, tag: 'latest' };
}

export async function buildImage(docker: Docker, request: BuildRequest): Promise<void> {
  // The context goes to the engine as a tar stream of the folder, as the engine's own CLI sends it.
  const tar = spawn('tar', ['-c', '-C', request.contextDir, '.'], { stdio: ['ignore', 'pipe', 'ignore'] });
  try {
    const stream = await docker.buildImage(tar.stdout as never, {
      t: request.tag, dockerfile: request.containerfile, rm: true, forcerm: true,
      ...(request.labels && { labels: { ...request.labels } }),
      ...(request.signal && { abortSignal: request.signal }),
    });
    await followProgress(stream, request.onLine);
  } catch (error) {
    throw engineError(error);
  } finally {
    tar.kill();
  }
}

export async function pullImage(docker: Docker, reference: string, auth?: RegistryAuth, onLine?: (line: string) => void): Promise<void> {
  try {
    // A digest names the image exactly; otherwise the tag defaults to latest, as the engine's CLI does.
    const { repo, tag } = splitReference(reference);
    const stream = await docker.pull(reference.includes('@') ? reference : `${repo}:${tag}`, auth ? { authconfig: auth } : {});
    await followProgress(stream, onLine);
  } catch (error) {
    throw engineError(error);
  }
}

export async function pushImage(docker: Docker, reference: string, auth: RegistryAuth, onLine?: (line: string) => void): Promise<void> {
  try {
    const { repo, tag } = splitReference(reference);
    const stream = await docker.getImage(pathName('image', repo)).push({ tag, authconfig: auth }) as NodeJS.ReadableStream;
    await followProgress(stream, onLine);
  } catch (error) {
    throw engineError(error);
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
