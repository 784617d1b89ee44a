// Database services on the real engine for the backup tests, and the engines' real clients,
// run from the test images on the host network so they connect through the external port.
import { execFile } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { createServer } from 'node:net';
import { promisify } from 'node:util';
import type { Engine } from '@berth/shared/contract/databases';
import { ENGINE_PROFILES } from '@berth/shared/domain/database/profile';

const run = promisify(execFile);

export const DATABASE_IMAGE: Record<Exclude<Engine, 'dbdelta'>, string> = {
  dbalpha: 'berth-test/dbalpha:current', dbbeta: 'berth-test/dbbeta:current',
  dbgamma: 'berth-test/dbgamma:current', dbepsilon: 'berth-test/dbepsilon:current',
};

/** A host port nothing listens on now. */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = randomInt(20000, 60000);
    const free = await new Promise<boolean>((resolve) => {
      const server = createServer().once('error', () => resolve(false)).listen(port, '0.0.0.0', () => server.close(() => resolve(true)));
    });
    if (free) return port;
  }
}

export async function docker(...args: string[]): Promise<string> {
  return (await run('docker', args, { maxBuffer: 64 * 1024 * 1024 })).stdout;
}

/** Resolves once `probe` answers true, or rejects after `timeoutMs` naming `what`. */
export async function until(what: string, probe: () => Promise<boolean>, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await probe().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Runs `script` with the engine's client on the host network: `sh -c script` in the test image. */
export async function client(engine: Exclude<Engine, 'dbdelta'>, script: string, env: Record<string, string> = {}): Promise<string> {
  const envArgs = Object.entries(env).flatMap(([key, value]) => ['-e', `${key}=${value}`]);
  return docker('run', '--rm', '--network', 'host', ...envArgs, '--entrypoint', 'sh', DATABASE_IMAGE[engine], '-c', script);
}

/** Whether the service's engine accepts connections, by the profile's own readiness check. */
export async function isReady(engine: Engine, service: string): Promise<boolean> {
  const ids = (await docker('ps', '-q', '--filter', `label=com.docker.swarm.service.name=${service}`)).trim().split('\n').filter(Boolean);
  if (ids.length === 0) return false;
  await docker('exec', ids[0]!, ...ENGINE_PROFILES[engine].ready);
  return true;
}

export async function removeService(name: string): Promise<void> {
  await docker('service', 'rm', name).catch(() => undefined);
  await until(`${name} gone`, async () => (await docker('ps', '-aq', '--filter', `label=com.docker.swarm.service.name=${name}`)).trim() === '', 30_000);
  await docker('volume', 'rm', `${name}-data`).catch(() => undefined);
}

/**
 * The database's service spec created on the real engine without Berth's deployer, for a test
 * whose Berth runs no reactors in its process (they run in processes it starts later); resolves
 * once the engine accepts connections. Tests with the reactors deploy through `<engine>.deploy`.
 */
export async function runDatabase(engine: Exclude<Engine, 'dbdelta'>, record: Record<string, any>): Promise<void> {
  const { default: Docker } = await import('dockerode');
  const { databaseServiceSpec } = await import('@berth/shared/domain/database/service-spec');
  const { profileOf } = await import('@berth/shared/domain/database/profile');
  const spec = databaseServiceSpec(engine, record as never, record, profileOf(engine, DATABASE_IMAGE[engine]));
  await new Docker().createService(spec as never);
  await until(`${record.appName} ready`, () => isReady(engine, record.appName));
}
