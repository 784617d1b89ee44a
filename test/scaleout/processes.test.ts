// The roles as separate processes on EventStoreDB (the gRPC test server), MongoDB (the stand-in,
// or MONGO_URL) and a real nats-server: two API processes, two projections processes of which one
// writes at a time under a lease; kill -9 of the writer; SIGTERM of every process.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { EventStoreDbEventStore } from '@berth/shared/adapters/eventstoredb/event-store';
import { MongoReadStore } from '@berth/shared/adapters/mongodb/read-store';
import { SqliteReadStore } from '@berth/shared/adapters/sqlite/read-store';
import { rebuildInto } from '@berth/projections/rebuild';
import type { HttpClient } from '../support/http.ts';
import { eventually, type RoleProcess } from '../support/role-process.ts';
import { said, startStack, type Stack } from './stack.ts';

describe('roles as processes', () => {
  let stack: Stack;
  let apis: HttpClient[];
  const projections: RoleProcess[] = [];

  before(async () => {
    stack = await startStack();
    projections.push(stack.role('projections'));
    apis = await stack.apis(2);
  });
  after(() => stack?.stop());

  it('shows what one API process answered at once through the other, and loses no concurrent update', async () => {
    const [one, two] = apis as [HttpClient, HttpClient];
    const { projectId } = await one.ok('project.create', { name: 'across processes', description: 'x' });
    assert.equal((await two.ok('project.one', { projectId })).name, 'across processes');
    const names = Array.from({ length: 12 }, (_, i) => `name ${i}`);
    const answers = await Promise.all(names.map((name, i) => apis[i % 2]!.call('project.update', { projectId, name })));
    const acknowledged = names.filter((_, i) => answers[i]!.status === 200);
    for (const answer of answers) assert.ok([200, 409].includes(answer.status), JSON.stringify(answer.body));
    const store = await EventStoreDbEventStore.connect(stack.eventStore.url);
    const { events } = await store.readStream(`project-${projectId}`);
    await store.close();
    const updated = events.filter((event) => event.type === 'ProjectUpdated').map((event) => (event.data as { name: string }).name);
    assert.deepEqual(new Set(updated), new Set(acknowledged));
    for (const api of apis) assert.equal((await api.ok('project.one', { projectId })).name, updated[updated.length - 1]);
  });

  it('hands the read models to the standby projections process after kill -9, applying nothing twice', async () => {
    const [one, two] = apis as [HttpClient, HttpClient];
    const standby = stack.role('projections');
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
    const store = await EventStoreDbEventStore.connect(stack.eventStore.url);
    const rebuilt = new SqliteReadStore(join(stack.dataDir, 'rebuilt.db'));
    const live = await MongoReadStore.connect(stack.mongoUrl);
    try {
      await rebuildInto(store, rebuilt);
      const byId = (docs: Array<Record<string, unknown>>) => docs.sort((a, b) => String(a.projectId).localeCompare(String(b.projectId)));
      assert.deepEqual(byId(await live.all('project')), byId(await rebuilt.all('project')));
    } finally {
      await Promise.all([store.close(), rebuilt.close(), live.close()]);
    }
  });

  it('stops every role cleanly on SIGTERM', async () => {
    const running = stack.processes.filter(({ child }) => child.exitCode === null && child.signalCode === null);
    for (const { child } of running) child.kill('SIGTERM');
    const codes = await Promise.all(running.map(({ exited }) => exited));
    assert.deepEqual(codes, running.map(() => 0), running.map(({ output }) => output.join('')).join('\n---\n'));
  });
});
