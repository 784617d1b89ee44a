// The embedded default loads only what it uses: the clients of the scaled-out servers and of
// object storage cost tens of megabytes and a second of start-up, so they are imported at their
// first use, and a process that never uses them never holds them.
import { createRequire } from 'node:module';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startBerth } from '../support/berth.ts';

const CLIENTS = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?(mongodb|@eventstore\/db-client|@nats-io\/transport-node|@aws-sdk\/client-s3)\//;
const loadedClients = () => [...new Set(Object.keys(createRequire(import.meta.url).cache)
  .map((path) => CLIENTS.exec(path)?.[1]).filter((name) => name !== undefined))];

test('an embedded Berth answers its API without loading the MongoDB, EventStoreDB, NATS or S3 clients', async () => {
  const berth = await startBerth();
  try {
    await berth.ok('project.create', { name: 'footprint', description: null });
    assert.equal((await berth.ok('project.all', {})).length, 1);
    assert.deepEqual(loadedClients(), []);
  } finally {
    await berth.stop();
  }
});
