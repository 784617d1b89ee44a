// Named volumes of the local engine: a database's data volume, made with its owner's mark before
// its service mounts it (a volume the engine makes on first mount carries no labels, and labels
// cannot be added to a volume later).
import type Docker from 'dockerode';
import { foundBy, inspectedOrNull, writtenByEngine } from './progress.ts';
import { pathName } from './names.ts';

export async function volumeLabels(docker: Docker, name: string): Promise<Record<string, string> | null> {
  const volume = await inspectedOrNull((abortSignal) => docker.getVolume(pathName('volume', name)).inspect({ abortSignal }));
  return volume && (volume.Labels ?? {});
}

export async function createVolume(docker: Docker, name: string, labels: Readonly<Record<string, string>>): Promise<void> {
  await writtenByEngine(() => docker.createVolume({ Name: name, Labels: { ...labels } }));
}

export const removeVolume = (docker: Docker, name: string): Promise<boolean> =>
  foundBy(() => docker.getVolume(pathName('volume', name)).remove());
