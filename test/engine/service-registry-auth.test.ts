// Which X-Registry-Auth header a service write sends. The engine replaces a service's stored pull
// credentials whenever that header is non-empty, so a write without credentials (stop, start,
// reload, a failed rollout's restore) must send none. A stand-in engine on a unix socket records
// the headers: the effect itself (a worker node failing to pull) needs a multi-node swarm.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { dockerClient, dockerEngine } from '@berth/shared/adapters/docker/engine';
import type { ServiceSpec } from '@berth/shared/ports/container-engine';

const EXISTING = 'web-existing';
const spec = (name: string): ServiceSpec => ({ Name: name, TaskTemplate: { ContainerSpec: { Image: `reg.example.com/${name}:1` } }, Mode: { Replicated: { Replicas: 1 } } });
const AUTH = { username: 'u', password: 'p', serveraddress: 'reg.example.com' };

const writes: Array<{ url: string; headers: IncomingHttpHeaders }> = [];
const dir = mkdtempSync(join(tmpdir(), 'berth-auth-header-'));
const socket = join(dir, 'engine.sock');
/** Knows one service; every other one is created by the write that names it. */
const server = createServer((request, response) => {
  request.resume();
  if (request.method === 'POST') writes.push({ url: request.url ?? '', headers: request.headers });
  const name = decodeURIComponent(request.url?.match(/^\/(?:v[\d.]+\/)?services\/([^/?]+)/)?.[1] ?? '');
  const known = name === EXISTING || writes.some((write) => write.url.includes('/services/create'));
  response.setHeader('content-type', 'application/json');
  if (request.method === 'GET' && !known) return response.writeHead(404).end('{"message":"no such service"}');
  response.end(JSON.stringify({ ID: name || 'created', Version: { Index: 7 }, Spec: spec(name || 'created'), CreatedAt: '', UpdatedAt: '' }));
});
const engine = dockerEngine(dockerClient(socket));

before(() => new Promise<void>((resolve) => server.listen(socket, resolve)));
after(() => {
  server.close();
  rmSync(dir, { recursive: true, force: true });
});

const lastWrite = () => writes.at(-1)!;

test('a service update without credentials sends no X-Registry-Auth (stop, start, reload, restore)', async () => {
  await engine.updateService(EXISTING, (current) => ({ ...current, Mode: { Replicated: { Replicas: 0 } } }));
  assert.match(lastWrite().url, /\/services\/web-existing\/update/);
  assert.equal(lastWrite().headers['x-registry-auth'], undefined);
});

test('a deploy with credentials sends them, on update and on create; without, none', async () => {
  await engine.upsertService(spec(EXISTING), AUTH);
  assert.deepEqual(JSON.parse(Buffer.from(lastWrite().headers['x-registry-auth'] as string, 'base64').toString()), AUTH);
  await engine.upsertService(spec('web-new'));
  assert.match(lastWrite().url, /\/services\/create/);
  assert.equal(lastWrite().headers['x-registry-auth'], undefined);
});
