// The scaled-out mode: two API instances and one projections instance, each with its own
// connections, on one EventStoreDB (the gRPC test server) and one MongoDB (the wire-protocol
// stand-in, or MONGO_URL). They share nothing in memory, as separate processes would not.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { EventStoreDbTestServer } from '../support/eventstoredb-server.ts';
import { startMongo, freshDatabase, type TestMongo } from '../support/mongo.ts';
import { startBerth, type TestBerth } from '../support/berth.ts';

describe('scaled out: two API instances and one projections instance', () => {
  let eventStore: EventStoreDbTestServer;
  let mongo: TestMongo;
  let first: TestBerth;
  let second: TestBerth;
  const dataDir = mkdtempSync(join(tmpdir(), 'berth-scaleout-'));

  before(async () => {
    eventStore = await new EventStoreDbTestServer().start();
    mongo = await startMongo();
    const mongoUrl = `${mongo.url.replace(/\/$/, '')}/${freshDatabase()}`;
    const stores = { eventStoreUrl: eventStore.url, mongoUrl, connectTimeoutSeconds: 5 };
    first = await startBerth({ dataDir, config: { ...stores, roles: ['projections'] } });
    second = await startBerth({ dataDir, config: { ...stores, roles: [] } });
  });
  after(async () => {
    await second?.stop({ keepData: true });
    await first?.stop({ keepData: true });
    await eventStore?.stop();
    await mongo?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('shows a command answered by one API instance at once through the other', async () => {
    const { projectId } = await first.ok('project.create', { name: 'seen everywhere', description: 'x' });
    assert.equal((await second.ok('project.one', { projectId })).name, 'seen everywhere');
    await second.ok('project.update', { projectId, name: 'renamed elsewhere' });
    assert.equal((await first.ok('project.one', { projectId })).name, 'renamed elsewhere');
  });

  it('takes an update of a service through one instance right after one through the other (what each holds in memory may be behind)', async () => {
    const { projectId } = await first.ok('project.create', { name: 'services', description: 'x' });
    const { applicationId } = await first.ok('application.create', { name: 'app', projectId });
    await second.ok('application.update', { applicationId, description: 'through the second' });
    await first.ok('application.update', { applicationId, description: 'through the first' });
    await second.ok('application.update', { applicationId, appName: `renamed-${Date.now()}` });
    assert.equal((await first.ok('application.one', { applicationId })).description, 'through the first');
  });

  it('loses no acknowledged update when both instances change the same record at once', async () => {
    const { projectId } = await first.ok('project.create', { name: 'contended', description: 'x' });
    const names = Array.from({ length: 16 }, (_, i) => `name ${i}`);
    const answers = await Promise.all(names.map((name, i) => (i % 2 ? first : second).call('project.update', { projectId, name })));
    for (const answer of answers) assert.ok([200, 409].includes(answer.status), JSON.stringify(answer.body));
    const acknowledged = names.filter((_, i) => answers[i]!.status === 200);
    assert.ok(acknowledged.length >= 2, 'too few updates got through to prove anything');
    const { events } = await first.berth.infrastructure.eventStore.readStream(`project-${projectId}`);
    const updated = events.filter((event) => event.type === 'ProjectUpdated').map((event) => (event.data as { name?: string }).name);
    assert.deepEqual(new Set(updated), new Set(acknowledged), 'every acknowledged update is in the log, and only those');
    const last = updated[updated.length - 1];
    assert.equal((await first.ok('project.one', { projectId })).name, last);
    assert.equal((await second.ok('project.one', { projectId })).name, last);
  });

  it('answers 503 UNAVAILABLE while the event store is down, and carries on once it is back', async () => {
    await eventStore.stop();
    const refused = await second.call('project.create', { name: 'during the outage', description: 'x' });
    assert.equal(refused.status, 503);
    assert.equal(refused.body.code, 'UNAVAILABLE');
    assert.equal(typeof refused.body.message, 'string');
    assert.ok(Array.isArray(refused.body.issues));
    eventStore = await new EventStoreDbTestServer(eventStore.log).start(eventStore.port);
    let created;
    for (let attempt = 0; !created; attempt++) {
      const answer = await second.call('project.create', { name: 'after the outage', description: 'x' });
      if (answer.status === 200) created = answer.body;
      else assert.ok(answer.status === 503 && attempt < 50, JSON.stringify(answer.body));
      if (!created) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.equal((await first.ok('project.one', { projectId: created.projectId })).name, 'after the outage');
  });
});
