// The real container engine for tests: the locally built test image, unique names, and waits.
import { randomBytes } from 'node:crypto';
import { dockerEngine } from '@berth/shared/adapters/docker/engine';
import type { ContainerEngine } from '@berth/shared/ports/container-engine';

/** Built by test/setup-engine.sh: serves /www on :8080 and exits at once on SIGTERM. */
export const TEST_IMAGE = 'berth-test/httpd:current';

export const engine: ContainerEngine = dockerEngine();

/** A service or image name no other test (or helper) uses. */
export const uniqueName = (prefix: string) => `${prefix}-${randomBytes(4).toString('hex')}`;

/** Resolves with the first truthy answer of `probe`, or rejects after `timeoutMs` naming `what`. */
export async function eventually<T>(what: string, probe: () => Promise<T | null | undefined | false>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  // Holds the process while it waits: a probe's pending fetch alone does not (the test runner would
  // find the event loop empty and cancel the test).
  const held = setTimeout(() => {}, timeoutMs);
  let last: unknown = null;
  try {
    while (Date.now() < deadline) {
      try {
        const answer = await probe();
        if (answer) return answer;
      } catch (error) {
        last = error;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    clearTimeout(held);
  }
  throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
}

/** The body served on a loopback port, or null when nothing answers there. */
export async function httpBody(port: number): Promise<string | null> {
  try {
    const response = await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(1000) });
    return await response.text();
  } catch {
    return null;
  }
}

/** The ids of the service's tasks that run now. */
export async function runningTasks(service: string): Promise<string[]> {
  const tasks = await engine.listTasks(service);
  return tasks.filter((task) => task.state === 'running' && task.desiredState === 'running').map((task) => task.id);
}

/** Removes the services and every image of their `berth/<name>` repositories (what a test deployed). */
export async function removeDeployed(names: readonly string[]): Promise<void> {
  for (const name of names) {
    await engine.removeService(name);
    await eventually(`the containers of ${name} to go`, async () =>
      (await engine.listContainers({ label: `com.docker.swarm.service.name=${name}` })).length === 0);
    for (const tag of await engine.imageTags(`berth/${name}`)) await engine.removeImage(tag);
  }
}
