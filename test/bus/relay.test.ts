import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { NatsBus } from '@berth/shared/adapters/bus/nats-bus';
import { newId } from '@berth/shared/ids';
import { configFrom } from '@berth/shared/runtime/config';
import { launch } from '@berth/shared/runtime/launch';
import { startNats } from '../support/nats.ts';
import { collector } from './bus-conformance.ts';

const dirs: string[] = [];
after(() => { for (const dir of dirs) rmSync(dir, { recursive: true, force: true }); });

const appended = (n: number) => ({
  id: newId(), type: 'ProjectCreated', data: { projectId: `p${n}`, name: `p${n}`, description: null, createdAt: new Date().toISOString() },
  metadata: { actorId: null, correlationId: 'relay-test', causationId: null, occurredAt: new Date().toISOString(), schemaVersion: 1 },
});

async function relayRun(natsUrl: string | undefined) {
  const dataDir = mkdtempSync(join(tmpdir(), 'berth-relay-'));
  dirs.push(dataDir);
  const config = configFrom({}, { dataDir, roles: ['relay'], logLevel: 'silent', sqliteSynchronous: 'NORMAL', natsUrl });
  return { dataDir, config, berth: await launch(config) };
}

describe('relay', () => {
  it('publishes every event of the log, in order, to a consumer of the in-process bus', async () => {
    const { berth } = await relayRun(undefined);
    const store = berth.infrastructure.eventStore;
    for (let n = 0; n < 5; n++) await store.append(`project-${newId()}`, [appended(n)], 'no_stream');
    const got = collector();
    const consumer = await (await berth.infrastructure.bus()).consume('relay_test', got.handle);
    const deliveries = await got.until(5);
    assert.deepEqual(deliveries.map((d) => d.event.position), [1, 2, 3, 4, 5]);
    await consumer.stop();
    await berth.stop();
  });

  it('brings its checkpoint to the last event once the in-process bus\'s consumers acknowledged it, with no new event to publish', async () => {
    const { berth } = await relayRun(undefined);
    const got = collector();
    // Handled a moment after the publish, as the reactors do: the relay's save came before the acknowledgement.
    const consumer = await (await berth.infrastructure.bus()).consume('relay_caught_up', async (delivery) => {
      await new Promise((resolve) => setTimeout(resolve, 100));
      return got.handle(delivery);
    });
    const store = berth.infrastructure.eventStore;
    for (let n = 0; n < 5; n++) await store.append(`project-${newId()}`, [appended(n)], 'no_stream');
    await got.until(5);
    const checkpoint = await berth.infrastructure.relayCheckpoint();
    const deadline = Date.now() + 5000;
    while (await checkpoint.read() !== 5) {
      assert.ok(Date.now() < deadline, `the checkpoint stayed at ${await checkpoint.read()} with every event acknowledged`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await consumer.stop();
    await berth.stop();
  });

  it('publishes again after a restart what a consumer of the in-process bus had not acknowledged, and not what it had', async () => {
    const first = await relayRun(undefined);
    const store = first.berth.infrastructure.eventStore;
    for (let n = 0; n < 5; n++) await store.append(`project-${newId()}`, [appended(n)], 'no_stream');
    // Handles the first two; the third does not end before the process goes (as when it is killed).
    const handled: number[] = [];
    let stuck = (_: unknown) => {};
    const reachedThird = new Promise((resolve) => { stuck = resolve; });
    let endThird = () => {};
    const consumer = await (await first.berth.infrastructure.bus()).consume('relay_inflight', async ({ event }) => {
      if (event.position >= 3) {
        stuck(null);
        return new Promise<void>((resolve) => { endThird = resolve; });
      }
      handled.push(event.position);
    });
    await reachedThird;
    await first.berth.stop();
    // A consumer's stop waits for its handler, which ends only now, after the relay is gone.
    const stopped = consumer.stop();
    endThird();
    await stopped;

    const second = await launch(first.config);
    const got = collector();
    const resumed = await (await second.infrastructure.bus()).consume('relay_inflight', got.handle);
    await got.until(3);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.deepEqual(handled, [1, 2]);
    assert.deepEqual(got.deliveries.map((d) => d.event.position), [3, 4, 5]);
    await resumed.stop();
    await second.stop();
  });

  it('resumes from its checkpoint after a restart: nothing published twice, nothing missed (NATS)', async () => {
    const nats = await startNats();
    try {
      const first = await relayRun(nats.url);
      const store = first.berth.infrastructure.eventStore;
      for (let n = 0; n < 3; n++) await store.append(`project-${newId()}`, [appended(n)], 'no_stream');
      const got = collector();
      const reader = await NatsBus.connect(nats.url);
      const consumer = await reader.consume('relay_restart', got.handle);
      await got.until(3);
      await first.berth.stop();
      const second = await launch(first.config);
      await second.infrastructure.eventStore.append(`project-${newId()}`, [appended(9)], 'no_stream');
      await got.until(4);
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.deepEqual(got.deliveries.map((d) => d.event.position), [1, 2, 3, 4]);
      await consumer.stop();
      await reader.close();
      await second.stop();
    } finally {
      await nats.stop();
    }
  });
});
