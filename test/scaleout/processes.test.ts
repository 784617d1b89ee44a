// The roles as separate processes on EventStoreDB (the gRPC test server), MongoDB (the stand-in,
// or MONGO_URL) and a real nats-server: two API processes, two projections processes of which one
// writes at a time under a lease; kill -9 of the writer; SIGTERM of every process.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { EventStoreDbEventStore } from '@berth/shared/adapters/eventstoredb/event-store';
import { MongoReadStore } from '@berth/shared/adapters/mongodb/read-store';
import { SqliteReadStore } from '@berth/shared/adapters/sqlite/read-store';
import { rebuildInto } from '@berth/projections/rebuild';
import { EventStoreDbTestServer } from '../support/eventstoredb-server.ts';
import { freePort, httpClient, type HttpClient } from '../support/http.ts';
import { freshDatabase, startMongo, type TestMongo } from '../support/mongo.ts';
import { startNats, type NatsServer } from '../support/nats.ts';
import { eventually, startRole, type RoleProcess } from '../support/role-process.ts';
import { ADMIN } from '../support/berth.ts';

describe('roles as processes', () => {
  let eventStore: EventStoreDbTestServer;
  let mongo: TestMongo;
  let nats: NatsServer;
  let mongoUrl: string;
  const dataDir = mkdtempSync(join(tmpdir(), 'berth-processes-'));
  const processes: RoleProcess[] = [];
  let env: Record<string, string>;
  const apis: HttpClient[] = [];
  const projections: RoleProcess[] = [];

  const role = (name: string, extra: Record<string, string> = {}) => {
    const started = startRole(name, { ...env, ...extra });
    processes.push(started);
    return started;
  };

  before(async () => {
    [eventStore, mongo, nats] = await Promise.all([new EventStoreDbTestServer().start(), startMongo(), startNats()]);
    mongoUrl = `${mongo.url.replace(/\/$/, '')}/${freshDatabase()}`;
    env = {
      BERTH_EVENTSTORE_URL: eventStore.url, BERTH_MONGO_URL: mongoUrl, BERTH_NATS_URL: nats.url,
      BERTH_DATA_DIR: dataDir, BERTH_INSTANCE_KEY: randomBytes(32).toString('base64'), BERTH_LEASE_TTL_MS: '1500',
      HOST: '127.0.0.1',
    };
    projections.push(role('projections'));
    for (let i = 0; i < 2; i++) {
      const port = await freePort();
      role('api', { PORT: String(port) });
      apis.push(httpClient(`http://127.0.0.1:${port}`));
    }
    const [one, two] = apis as [HttpClient, HttpClient];
    // Generous: on a loaded two-core machine, a process that compiles Berth on start is slow to listen.
    await eventually(async () => (await one.call('auth.login', ADMIN)).status === 401 && (await two.call('auth.login', ADMIN)).status === 401,
      120_000, 'both API processes answer').catch((error: Error) => {
      throw new Error(`${error.message}; their output:\n${processes.map(({ output }) => output.join('')).join('\n---\n')}`);
    });
    const setup = readFileSync(join(dataDir, 'setup-token'), 'utf8').trim();
    const created = await one.call('auth.createAdmin', ADMIN, { token: setup });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    for (const api of apis) api.token = (await api.ok('auth.login', ADMIN)).token;
  });
  after(async () => {
    for (const { child } of processes) if (child.exitCode === null) child.kill('SIGKILL');
    await Promise.all(processes.map(({ exited }) => exited));
    await Promise.all([eventStore?.stop(), mongo?.stop(), nats?.stop()]);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('shows what one API process answered at once through the other, and loses no concurrent update', async () => {
    const [one, two] = apis as [HttpClient, HttpClient];
    const { projectId } = await one.ok('project.create', { name: 'across processes', description: 'x' });
    assert.equal((await two.ok('project.one', { projectId })).name, 'across processes');
    const names = Array.from({ length: 12 }, (_, i) => `name ${i}`);
    const answers = await Promise.all(names.map((name, i) => apis[i % 2]!.call('project.update', { projectId, name })));
    const acknowledged = names.filter((_, i) => answers[i]!.status === 200);
    for (const answer of answers) assert.ok([200, 409].includes(answer.status), JSON.stringify(answer.body));
    const store = await EventStoreDbEventStore.connect(eventStore.url);
    const { events } = await store.readStream(`project-${projectId}`);
    await store.close();
    const updated = events.filter((event) => event.type === 'ProjectUpdated').map((event) => (event.data as { name: string }).name);
    assert.deepEqual(new Set(updated), new Set(acknowledged));
    for (const api of apis) assert.equal((await api.ok('project.one', { projectId })).name, updated[updated.length - 1]);
  });

  it('hands the read models to the standby projections process after kill -9, applying nothing twice', async () => {
    const [one, two] = apis as [HttpClient, HttpClient];
    const standby = role('projections');
    const said = (process: RoleProcess, line: string) => async () => process.output.join('').includes(line);
    await eventually(said(standby, 'projections: waiting for the lease'), 120_000, 'the standby starts');
    const killedAt = Date.now();
    projections[0]!.child.kill('SIGKILL');
    await eventually(said(standby, 'projections: holding the lease'), 15_000, 'the standby takes the lease');
    const took = Date.now() - killedAt;
    assert.ok(took < 6000, `took over ${took} ms after the kill (lease time to live 1500 ms)`);
    const { projectId } = await one.ok('project.create', { name: 'after the kill', description: 'x' });
    assert.equal((await two.ok('project.one', { projectId })).name, 'after the kill');
    projections.push(standby);
    // The read models equal a rebuild from the log: no event lost, none applied twice.
    const store = await EventStoreDbEventStore.connect(eventStore.url);
    const rebuilt = new SqliteReadStore(join(dataDir, 'rebuilt.db'));
    const live = await MongoReadStore.connect(mongoUrl);
    try {
      await rebuildInto(store, rebuilt);
      const byId = (docs: Array<Record<string, unknown>>) => docs.sort((a, b) => String(a.projectId).localeCompare(String(b.projectId)));
      assert.deepEqual(byId(await live.all('project')), byId(await rebuilt.all('project')));
    } finally {
      await Promise.all([store.close(), rebuilt.close(), live.close()]);
    }
  });

  it('stops every role cleanly on SIGTERM', async () => {
    const running = processes.filter(({ child }) => child.exitCode === null && child.signalCode === null);
    for (const { child } of running) child.kill('SIGTERM');
    const codes = await Promise.all(running.map(({ exited }) => exited));
    assert.deepEqual(codes, running.map(() => 0), running.map(({ output }) => output.join('')).join('\n---\n'));
  });
});
