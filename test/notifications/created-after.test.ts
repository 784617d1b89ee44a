// A subscription is sent only events appended after it was created, even when the relay publishes
// older ones again: here the whole log, as after a crash before the relay saved its checkpoint.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileCheckpoint } from '@berth/shared/adapters/file-checkpoint';
import { freePort, httpClient } from '../support/http.ts';
import { eventually, startRole, type RoleProcess } from '../support/role-process.ts';
import { startReceiver, type Receiver } from './support.ts';

const ADMIN = { email: 'created-after@berth.test', password: 'a long enough password' };

describe('a subscription created after an event', () => {
  let receiver: Receiver;
  const names: string[] = [];
  const cleanups: Array<() => Promise<unknown>> = [];
  before(async () => {
    receiver = await startReceiver((_request, body, response) => {
      names.push(JSON.parse(body).data.name);
      response.writeHead(204).end();
    });
  });
  after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
    await receiver.close();
  });

  it('is not sent it after a kill -9 and a restart that publishes the log again', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'berth-created-after-'));
    cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
    const port = await freePort();
    const env = {
      BERTH_DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: String(port), BERTH_LOG_LEVEL: 'silent', BERTH_SQLITE_SYNCHRONOUS: 'NORMAL',
      BERTH_NOTIFY_RETRY_MS: '20000', BERTH_NOTIFY_TIMEOUT_MS: '500',
    };
    const start = async (): Promise<RoleProcess> => {
      const process = startRole('start', env);
      cleanups.push(async () => { process.child.kill('SIGKILL'); await process.exited; });
      await eventually(async () => (await fetch(`http://127.0.0.1:${port}/ready`)).status === 200, 60_000, 'berth start to be ready')
        .catch((error: Error) => { throw new Error(`${error.message}\n${process.output.join('')}`); });
      return process;
    };
    const killed = await start();
    const api = httpClient(`http://127.0.0.1:${port}`);
    api.token = readFileSync(join(dataDir, 'setup-token'), 'utf8').trim();
    await api.ok('auth.createAdmin', ADMIN);
    api.token = (await api.ok('auth.login', ADMIN)).token;

    await api.ok('project.create', { name: 'made before the subscription' });
    const { subscriptionId } = await api.ok('notification.create', { url: `${receiver.url}/hook`, eventTypes: ['ProjectCreated'] });
    await api.ok('project.create', { name: 'made after it' });
    await eventually(async () => names.includes('made after it'), 10_000, 'the event after the subscription to arrive');
    killed.child.kill('SIGKILL');
    await killed.exited;
    // The relay publishes the whole log again, as when it was killed before it saved how far it got.
    await fileCheckpoint(join(dataDir, 'relay.checkpoint')).save(0);

    await start();
    await api.ok('project.create', { name: 'made after the restart' });
    await eventually(async () => names.includes('made after the restart'), 15_000, 'the event after the restart to arrive');
    await new Promise((resolve) => setTimeout(resolve, 500)); // anything older published again would be here by now
    assert.deepEqual(names, ['made after it', 'made after the restart']);
    const deliveries: Array<{ status: string }> = await api.ok('notification.deliveries', { subscriptionId });
    assert.deepEqual(deliveries.map((delivery) => delivery.status), ['delivered', 'delivered']);
  });
});
