// The compose stacks tests deploy, looked at and cleaned up on the real engine by their namespace.
import { dockerClient } from '@berth/shared/adapters/docker/engine';
import { dockerStacks } from '@berth/shared/adapters/docker/stack';
import { engine, eventually } from './engine.ts';

export const stacks = dockerStacks(dockerClient());

/** Services, networks and (named) volumes of the namespace, what a test deployed. */
export async function removeStacks(namespaces: readonly string[]): Promise<void> {
  for (const namespace of namespaces) {
    for (const name of await stacks.services(namespace)) await engine.removeService(name);
    await eventually(`the containers of ${namespace} to go`, async () => (await stacks.containers(namespace)) === 0, 30_000);
    await eventually(`the networks of ${namespace} to go`, async () => {
      for (const name of await stacks.networks(namespace)) await stacks.removeNetwork(name).catch(() => false);
      return (await stacks.networks(namespace)).length === 0;
    });
    for (const name of await stacks.volumes(namespace)) await stacks.removeVolume(name);
  }
}
