// The MongoDB read store when its server's host is lost without closing anything (no reset, no
// answer): a read fails as unavailable within a bound instead of hanging, and reads work again
// soon after the host is back.
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

it('fails a read on a silently lost host as unavailable within 25 s, and reads again within 10 s of its return', async () => {
  const database = freshDatabase();
  const url = new URL(mongo.url);
  url.host = proxy.address;
  url.pathname = `/${database}`;
  const store = await MongoReadStore.connect(url.toString());
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
