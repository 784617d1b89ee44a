// What an operator sees of the relay's lag while nats-server is down (the relay's checkpoint is in
// NATS, so no process can read it): no caught-up 0 while events pile up unrelayed, but no relay
// series at all, and a scrape that still answers soon; once NATS is back, the real lag.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Relay } from '@berth/reactors/relay/relay';
import { startBerth, type TestBerth } from '../support/berth.ts';
import { startNats, type NatsServer } from '../support/nats.ts';
import { eventually } from '../support/role-process.ts';

const sample = (text: string, name: string, consumer: string): number | null => {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${name}{consumer="${consumer}"}`));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : null;
};

describe('relay lag while the bus is down', () => {
  let nats: NatsServer;
  let berth: TestBerth;
  before(async () => {
    nats = await startNats();
    berth = await startBerth({ config: { natsUrl: nats.url } });
  });
  after(async () => {
    await berth?.stop();
    await nats?.stop();
  });
  const scrape = async () => (await berth.app.inject({ url: '/metrics' })).body;

  it('drops the relay\'s lag series instead of a stale 0 while NATS is down, answers the scrape soon, and shows the real lag once back', async () => {
    await berth.ok('project.create', { name: 'before the outage' });
    const infra = berth.berth.infrastructure;
    const relay = new Relay(infra.eventStore, await infra.bus(), await infra.relayCheckpoint());
    await relay.start();
    try {
      await eventually(async () => sample(await scrape(), 'berth_consumer_lag_events', 'relay') === 0, 10_000, 'the relay catches up');
    } finally {
      await relay.stop();
    }
    assert.equal(sample(await scrape(), 'berth_consumer_lag_seconds', 'relay'), 0);
    const relayed = await infra.eventStore.head();

    await nats.down();
    try {
      for (let i = 0; i < 3; i++) await berth.ok('project.create', { name: `unrelayed ${i}` });
      const started = Date.now();
      const text = await scrape();
      const took = Date.now() - started;
      // Either gone or the real lag; never the caught-up 0 of before the outage.
      const events = sample(text, 'berth_consumer_lag_events', 'relay');
      const seconds = sample(text, 'berth_consumer_lag_seconds', 'relay');
      assert.ok(events === null || events >= 3, `relay lag while NATS is down: ${events} events\n${text}`);
      assert.ok(seconds === null || seconds > 0, `relay lag while NATS is down: ${seconds} s`);
      assert.ok(took < 2500, `the scrape took ${took} ms with the bus down`);
      // The other consumers of the log are still reported.
      assert.equal(sample(text, 'berth_consumer_lag_events', 'entity:project'), 0, text);
    } finally {
      await nats.up();
    }
    const unrelayed = (await infra.eventStore.readAll(relayed, 10_000)).length;
    assert.ok(unrelayed >= 3);
    await eventually(async () => sample(await scrape(), 'berth_consumer_lag_events', 'relay') === unrelayed, 20_000, 'the real lag once NATS is back');
  });
});
