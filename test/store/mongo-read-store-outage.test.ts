// The MongoDB read store in outages: when its server's host is lost without closing anything (no
// reset, no answer), a read fails as unavailable within a bound instead of hanging, and reads work
// again soon after the host is back; and a client that does not recover by itself is replaced.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { MongoReadStore } from '@berth/shared/adapters/mongodb/read-store';
import { UnavailableError } from '@berth/shared/ports/unavailable';
import { freshDatabase, startMongo, type TestMongo } from '../support/mongo.ts';
import { eventually } from '../support/role-process.ts';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.ts';

let mongo: TestMongo;
let proxy: TcpProxy;
before(async () => {
  mongo = await startMongo();
  const { hostname, port } = new URL(mongo.url);
  proxy = await startTcpProxy({ host: hostname, port: Number(port) });
});
after(async () => {
  await proxy.stop();
  await mongo.stop();
});

const storeUrl = () => {
  const url = new URL(mongo.url);
  url.host = proxy.address;
  url.pathname = `/${freshDatabase()}`;
  return url.toString();
};

it('fails a read on a silently lost host as unavailable within 25 s, and reads again within 10 s of its return', async () => {
  const store = await MongoReadStore.connect(storeUrl());
  try {
    await store.get('project', 'p-1');
    proxy.blackhole();
    const started = Date.now();
    await assert.rejects(store.get('project', 'p-1'), UnavailableError);
    const took = Date.now() - started;
    assert.ok(took < 25_000, `the read failed after ${took} ms`);
    proxy.restore();
    const restored = Date.now();
    await eventually(async () => (await store.get('project', 'p-1')) === null, 10_000, 'a read after the host is back');
    console.log(`read failed after ${took} ms; read again ${Date.now() - restored} ms after the return`);
  } finally {
    await store.close();
  }
});

// The driver's server monitor was seen stuck for good in a test run (a connection closed under the
// check it was starting): after the server came back, every operation kept failing server
// selection. Stopping the monitor here puts the client in that state on purpose.
it('replaces a client that stays unable to reach a server that is back', async () => {
  const store = await MongoReadStore.connect(storeUrl(), { replaceClientAfterMs: 2000 });
  try {
    await store.get('project', 'p-1');
    const { client } = store as unknown as { client: { topology?: { s: { servers: Map<string, { monitor?: { close(): void } | null }> } } } };
    for (const server of client.topology!.s.servers.values()) server.monitor!.close();
    proxy.cut();
    await assert.rejects(store.get('project', 'p-1'), UnavailableError);
    proxy.restore();
    const restored = Date.now();
    await eventually(async () => (await store.get('project', 'p-1')) === null, 20_000, 'a read after the server is back');
    console.log(`read again ${Date.now() - restored} ms after the server came back`);
  } finally {
    proxy.restore();
    await store.close();
  }
});
