// What an operator sees of the bus side on a Berth whose bus is a real nats-server: the relay's
// lag (events of the log not yet on the bus, and the age of the oldest) and each durable bus
// consumer's unacknowledged events in /metrics, read from NATS where any process can; /ready
// turning unready while nats-server is down and ready again once it is back; while it is down,
// no caught-up 0 for the relay while events pile up unrelayed, but no relay series at all, and a
// scrape that still answers soon.
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

describe('relay and bus lag, and readiness of the bus', () => {
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

  it('counts what the relay has not published and what a reactor has not acknowledged, down to 0 once done', async () => {
    for (let i = 0; i < 3; i++) await berth.ok('project.create', { name: `relayed ${i}` });
    const infra = berth.berth.infrastructure;
    const unpublished = (await infra.eventStore.readAll(0, 10_000)).length;
    const before = await scrape();
    assert.equal(sample(before, 'berth_consumer_lag_events', 'relay'), unpublished, 'no relay ran yet: the whole log waits');
    assert.notEqual(sample(before, 'berth_consumer_lag_seconds', 'relay'), null, 'the age of the oldest is there too');

    const bus = await infra.bus();
    let open!: () => void;
    const gate = new Promise<void>((resolve) => { open = resolve; });
    const consumer = await bus.consume('metrics-probe', () => gate);
    const relay = new Relay(infra.eventStore, bus, await infra.relayCheckpoint());
    await relay.start();
    try {
      await eventually(async () => sample(await scrape(), 'berth_consumer_lag_events', 'relay') === 0, 10_000, 'the relay catches up');
      assert.equal(sample(await scrape(), 'berth_consumer_lag_seconds', 'relay'), 0);
      await eventually(async () => sample(await scrape(), 'berth_bus_consumer_pending', 'metrics-probe') === unpublished,
        10_000, 'the probe has every event pending');
      open();
      await eventually(async () => sample(await scrape(), 'berth_bus_consumer_pending', 'metrics-probe') === 0, 10_000, 'all acknowledged');
    } finally {
      open();
      await relay.stop();
      await consumer.stop();
    }
  });

  it('answers /ready 503 naming the bus while nats-server is down, and 200 again once it is back', async () => {
    const ready = async () => berth.app.inject({ url: '/ready' });
    const up = await ready();
    assert.equal(up.statusCode, 200, up.body);
    assert.equal(up.json().checks.bus.ok, true);
    await nats.down();
    try {
      const down = await eventually(async () => { const answer = await ready(); return answer.statusCode === 503 && answer; }, 10_000, 'unready');
      assert.equal(down.json().checks.bus.ok, false);
      assert.match(down.json().checks.bus.reason, /NATS|nats/);
      assert.equal(down.json().checks.eventStore.ok, true);
    } finally {
      await nats.up();
    }
    await eventually(async () => (await ready()).statusCode === 200, 20_000, 'ready again');
  });

  it('drops the relay\'s lag series instead of a stale 0 while NATS is down, answers the scrape soon, and shows the real lag once back', async () => {
    await berth.ok('project.create', { name: 'before the outage' });
    const infra = berth.berth.infrastructure;
    const checkpoint = await infra.relayCheckpoint();
    // The test before restarted nats-server: its JetStream may answer the connection before the
    // checkpoint's bucket, which the relay reads first as it starts.
    await eventually(async () => checkpoint.read().then(() => true, () => false), 20_000, 'the relay checkpoint readable');
    const relay = new Relay(infra.eventStore, await infra.bus(), checkpoint);
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
      // Either gone or the real lag; never the caught-up 0 of before the outage. The bus's client
      // alone would wait 5 s; the scrape waits 1 s for it (4 s leaves room for a loaded machine).
      const events = sample(text, 'berth_consumer_lag_events', 'relay');
      const seconds = sample(text, 'berth_consumer_lag_seconds', 'relay');
      assert.ok(events === null || events >= 3, `relay lag while NATS is down: ${events} events\n${text}`);
      assert.ok(seconds === null || seconds > 0, `relay lag while NATS is down: ${seconds} s`);
      assert.ok(took < 4000, `the scrape took ${took} ms with the bus down`);
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
