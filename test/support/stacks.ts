// The compose stacks tests deploy, looked at and cleaned up on the real engine by their namespace.
import { dockerClient } from '@berth/shared/adapters/docker/engine';
import { dockerStacks } from '@berth/shared/adapters/docker/stack';
import { TEST_IMAGE, engine, eventually } from './engine.ts';

export const stacks = dockerStacks(dockerClient());

/** Services, networks and (named) volumes of the namespace, what a test deployed. */
export async function removeStacks(namespaces: readonly string[]): Promise<void> {
  for (const namespace of namespaces) {
    for (const name of await stacks.services(namespace)) await engine.removeService(name);
    await eventually(`the containers of ${namespace} to go`, async () => (await stacks.containers(namespace)) === 0, 30_000);
    await eventually(`the networks of ${namespace} to go`, async () => {
      for (const name of await stacks.networks(namespace)) await stacks.removeNetwork(name).catch(() => false);
      return (await stacks.networks(namespace)).length === 0;
    }, 60_000);
    for (const name of await stacks.volumes(namespace)) await stacks.removeVolume(name);
  }
}

// The engine's virtual-IP routing (IPVS), like its ingress mesh, does not route on this machine:
// web resolves to its task's address (endpoint_mode dnsrr, a standard compose setting) instead.
/** `web` serves; `probe` fetches http://web:8080/ every second into /www/fetched.html and serves that on ${PORT}. */
export const TWO_SERVICES = `services:
  web:
    image: ${TEST_IMAGE}
    networks: [back]
    deploy:
      endpoint_mode: dnsrr
  probe:
    image: ${TEST_IMAGE}
    command: ["/bin/sh", "-c", "trap 'exit 0' TERM; (while true; do wget -q -O /www/fetched.html http://web:8080/; sleep 1; done) & httpd -f -p 8080 -h /www & wait"]
    ports:
      - "\${PORT}:8080"
    networks: [back]
networks:
  back: {}
`;

/** The body served at `path` of a loopback port, or null when nothing (or an error) answers there. */
export async function served(port: number, path: string): Promise<string | null> {
  try {
    const response = await fetch(`http://127.0.0.1:${port}${path}`, { signal: AbortSignal.timeout(1000) });
    return response.ok ? await response.text() : null;
  } catch {
    return null;
  }
}
