// StackEngine on dockerode: networks, and what carries a stack's namespace label.
import type Docker from 'dockerode';
import type { StackEngine } from '../../ports/stack-engine.ts';
import { foundBy, fromEngine, inspectedOrNull, writtenByEngine } from './progress.ts';
import { pathName } from './names.ts';
import { dockerStackObjects, labelled } from './stack-objects.ts';
import { removeVolume } from './volumes.ts';


export function dockerStacks(docker: Docker): StackEngine {
  return {
    async ensureNetworks(networks) {
      const existing = new Set((await fromEngine(() => docker.listNetworks())).map((network) => network.Name));
      for (const network of networks.filter((n) => !existing.has(n.Name))) {
        await writtenByEngine(() => docker.createNetwork({ ...network, CheckDuplicate: true }));
      }
    },
    async network(name) {
      // The engine also resolves an id, or a prefix of one, in place of a name: only the exact name counts.
      const found = await inspectedOrNull(() => docker.getNetwork(pathName('network', name)).inspect());
      return found?.Name === name ? { id: found.Id, labels: found.Labels ?? {} } : null;
    },
    services: async (namespace) =>
      (await fromEngine(() => docker.listServices({ filters: labelled(namespace) }))).map((service) => service.Spec?.Name ?? service.ID ?? ''),
    networks: async (namespace, mark) => (await fromEngine(() => docker.listNetworks({ filters: labelled(namespace, mark) }))).map((network) => network.Name),
    volumes: async (namespace) => ((await fromEngine(() => docker.listVolumes({ filters: labelled(namespace) }))).Volumes ?? []).map((volume) => volume.Name),
    containers: async (namespace) => (await fromEngine(() => docker.listContainers({ all: true, filters: labelled(namespace) }))).length,
    removeNetwork: (name) => foundBy(() => docker.getNetwork(pathName('network', name)).remove()),
    removeVolume: (name) => removeVolume(docker, name),
    ...dockerStackObjects(docker),
  };
}
