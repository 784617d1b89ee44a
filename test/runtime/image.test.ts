// The image an operator builds with `docker build -f shared/runtime/Dockerfile .` and the stack file
// that runs it: the image, built on the real engine from this checkout, serves the embedded default
// end to end; the stack file is one `docker stack deploy` accepts, running every role from it.
// The official Node base images cannot be pulled here: test/images/node.sh makes stand-ins.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { test } from 'node:test';
import { parse } from 'yaml';
import { ROLES } from '@berth/shared/runtime/config';
import { freePort, httpClient } from '../support/http.ts';
import { eventually, uniqueName } from '../support/engine.ts';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const IMAGE = 'berth-test/berth:current';
const docker = async (...args: string[]) => (await run('docker', args, { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 })).stdout;
/** A container's log, both streams (Berth prints its setup token and stop line on either). */
const logsOf = async (name: string) => {
  const { stdout, stderr } = await run('docker', ['logs', name]);
  return stdout + stderr;
};

/**
 * Each run builds from a checkout of its own, so the last run's image (untagged by this one's) and
 * its first stage (the classic builder keeps every build's) would stay behind, a gigabyte a run.
 * The newest stage stays: its layers are the next build's cache.
 */
async function removeEarlierBuilds(): Promise<void> {
  const untagged = async (label: string) =>
    (await docker('images', '-q', '--filter', 'dangling=true', '--filter', `label=${label}`)).split('\n').filter(Boolean);
  const stages = await untagged('org.berth.stage=build'); // newest first
  const earlier = [...(await untagged('org.berth.test-image=berth')), ...stages.slice(1)];
  if (earlier.length > 0) await docker('rmi', ...earlier);
}

test('the image built from the Dockerfile serves the embedded Berth (health, the setup token in its log, an admin and a project) and stops cleanly', { timeout: 900_000 }, async () => {
  await docker('build', '-q', '-f', 'shared/runtime/Dockerfile', '-t', IMAGE, '--label', 'org.berth.test-image=berth', '.');
  await removeEarlierBuilds();
  const name = uniqueName('berth-image');
  const port = await freePort();
  // As an operator runs it: the engine's socket for the reactors, the API published on a port.
  await docker('run', '-d', '--name', name, '-p', `127.0.0.1:${port}:3000`, '-v', '/var/run/docker.sock:/var/run/docker.sock', IMAGE);
  try {
    const api = httpClient(`http://127.0.0.1:${port}`);
    // Each try bounded: while the container starts, the engine's port proxy may take a connection it cannot pass on yet.
    await eventually('the container to answer /health', async () =>
      (await api.raw('/health', { signal: AbortSignal.timeout(2000) }).catch(() => null))?.status === 200, 60_000);
    const setupToken = await eventually('the setup token in the container log', async () => /setup token: (\S+)/.exec(await logsOf(name))?.[1]);
    const admin = { email: 'image@berth.test', password: 'a long enough password' };
    const created = await api.call('auth.createAdmin', admin, { token: setupToken });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    api.token = (await api.ok('auth.login', admin)).token;
    const { projectId } = await api.ok('project.create', { name: 'from the image', description: null });
    assert.equal((await api.ok('project.one', { projectId })).name, 'from the image');
    // A supported Node: 20 reached its end of life in April 2026.
    assert.match(await docker('exec', name, 'node', '--version'), /^v22\./);
    // Node is the container's first process (start.sh execs it), so the engine's stop reaches Berth.
    await docker('stop', name);
    assert.equal((await docker('inspect', '-f', '{{.State.ExitCode}}', name)).trim(), '0');
    assert.match(await logsOf(name), /berth start: SIGTERM, stopping/);
  } finally {
    await docker('rm', '-f', name);
  }
});

interface StackService {
  image: string;
  command?: string[];
  environment?: Record<string, string>;
  volumes?: Array<{ type: string; source: string; target: string }>;
  secrets?: Array<{ source: string }>;
}

test('the scaled-out stack file is one the engine deploys, running every role of Berth from the image with one data folder and one instance key', async () => {
  // `docker stack config` reads the file as `docker stack deploy` does, and refuses what it would refuse.
  const stack = parse(await docker('stack', 'config', '-c', 'shared/runtime/scaled-out.stack.yml')) as { services: Record<string, StackService> };
  const berth = Object.values(stack.services).filter((service) => service.image === 'berth:latest');
  assert.deepEqual(berth.map((service) => service.command?.[0]).sort(), [...ROLES].sort());
  // The reactors write deployment logs to the data folder and the API processes read them there.
  for (const service of berth) {
    const dataDir = service.environment?.BERTH_DATA_DIR;
    const mounted = service.volumes?.find((volume) => volume.target === dataDir);
    assert.deepEqual(mounted && { type: mounted.type, source: mounted.source }, { type: 'volume', source: 'berth-data' }, `${service.command?.[0]} at ${dataDir}`);
    // Every process seals and opens secrets with the one instance key, the swarm secret.
    assert.ok(service.secrets?.some((secret) => secret.source === 'berth_instance_key'), `${service.command?.[0]} has the key's secret`);
    assert.equal(service.environment?.BERTH_INSTANCE_KEY_FILE, '/run/secrets/berth_instance_key');
  }
});
