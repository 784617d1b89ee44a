// Networks of the local engine: found by a label (what a compose project's tool created), or by
// exact name; and the attachable overlay Berth makes for the proxy.
import type Docker from 'dockerode';
import type { NetworkInfo } from '../../ports/container-engine.ts';
import { foundBy, fromEngine, inspectedOrNull, writtenByEngine } from './progress.ts';
import { pathName } from './names.ts';

export const listNetworks = async (docker: Docker, filter: { label: string }): Promise<string[]> =>
  (await fromEngine((abortSignal) => docker.listNetworks({ filters: { label: [filter.label] }, abortSignal }))).map((network) => network.Name);

export const removeNetwork = (docker: Docker, name: string): Promise<boolean> =>
  foundBy(() => docker.getNetwork(pathName('network', name)).remove());

export async function network(docker: Docker, name: string): Promise<NetworkInfo | null> {
  const found = await inspectedOrNull(() => docker.getNetwork(pathName('network', name)).inspect());
  // The engine resolves an id, or a prefix of one, in place of a name: only the exact name counts.
  if (found?.Name !== name) return null;
  return {
    name, driver: found.Driver, scope: found.Scope, ingress: found.Ingress === true, attachable: found.Attachable === true, labels: found.Labels ?? {},
  };
}

export async function createOverlayNetwork(docker: Docker, name: string, labels: Readonly<Record<string, string>>): Promise<boolean> {
  try {
    // CheckDuplicate has the engine answer 409 for a name it holds already (engines before API 1.44
    // would otherwise make a second local network of the name).
    await writtenByEngine(() => docker.createNetwork({
      Name: pathName('network', name), Driver: 'overlay', Attachable: true, CheckDuplicate: true, Labels: { ...labels },
    }));
    return true;
  } catch (error) {
    // A create that raced another past the engine's own check is refused by the swarm's store, in
    // other words (measured: "name conflicts with an existing object", not a 409): whatever the
    // refusal said, a network of the name being there now is what the caller asked for.
    if (await network(docker, name)) return false;
    throw error;
  }
}
