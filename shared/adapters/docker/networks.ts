// Networks of the local engine: found by a label (what a compose project's tool created), or by exact name.
import type Docker from 'dockerode';
import type { NetworkInfo } from '../../ports/container-engine.ts';
import { foundBy, fromEngine, inspectedOrNull } from './progress.ts';
import { pathName } from './names.ts';

export const listNetworks = async (docker: Docker, filter: { label: string }): Promise<string[]> =>
  (await fromEngine((abortSignal) => docker.listNetworks({ filters: { label: [filter.label] }, abortSignal }))).map((network) => network.Name);

export const removeNetwork = (docker: Docker, name: string): Promise<boolean> =>
  foundBy(() => docker.getNetwork(pathName('network', name)).remove());

export async function network(docker: Docker, name: string): Promise<NetworkInfo | null> {
  const found = await inspectedOrNull(() => docker.getNetwork(pathName('network', name)).inspect());
  // The engine resolves an id, or a prefix of one, in place of a name: only the exact name counts.
  if (found?.Name !== name) return null;
  return { name, driver: found.Driver, scope: found.Scope, ingress: found.Ingress === true, labels: found.Labels ?? {} };
}
