// A real image registry (Debian's docker-registry) on a loopback port, with htpasswd logins.
// The engine treats 127.0.0.0/8 as an insecure registry, so it logs in and pushes over plain http.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { htpasswdEntry } from '@berth/shared/crypto/htpasswd';
import { freePort } from './http.ts';
import { eventually } from './engine.ts';

export interface TestRegistry {
  /** host:port */
  readonly url: string;
  readonly username: string;
  readonly password: string;
  stop(): Promise<void>;
}

export async function startRegistry(username = 'pusher', password = 'registry-secret-pw', port?: number): Promise<TestRegistry> {
  const dir = mkdtempSync(join(tmpdir(), 'berth-registry-'));
  port ??= await freePort();
  writeFileSync(join(dir, 'htpasswd'), `${htpasswdEntry(username, password)}\n`);
  writeFileSync(join(dir, 'config.yml'), [
    'version: 0.1', 'log: { level: error }', `storage: { filesystem: { rootdirectory: ${join(dir, 'data')} } }`,
    `http: { addr: "127.0.0.1:${port}" }`, `auth: { htpasswd: { realm: berth-test, path: ${join(dir, 'htpasswd')} } }`,
  ].join('\n'));
  const child: ChildProcess = spawn('docker-registry', ['serve', join(dir, 'config.yml')], { stdio: 'ignore' });
  const url = `127.0.0.1:${port}`;
  await eventually('the registry to listen', async () => {
    const response = await fetch(`http://${url}/v2/`).catch(() => null);
    return response?.status === 401;
  }, 10_000);
  return {
    url, username, password,
    async stop() {
      child.kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
