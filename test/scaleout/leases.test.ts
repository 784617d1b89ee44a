// One active writer across processes: NATS key-value leases on a real nats-server.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { NatsLeases } from '@berth/shared/adapters/nats/leases';
import { newId } from '@berth/shared/ids';
import { startNats, type NatsServer } from '../support/nats.ts';

const TTL = 1200;

/** Work that records when it started and stopped, and fails the test if two ever overlap. */
function recorder(log: Array<[string, string, number]>, who: string) {
  return {
    async start() {
      assert.ok(!log.some(([, what], i) => what === 'start' && !log.slice(i).some(([w, s]) => w === log[i]![0] && s === 'stop')),
        `${who} started while another still ran`);
      log.push([who, 'start', Date.now()]);
    },
    async stop() { log.push([who, 'stop', Date.now()]); },
  };
}

async function until(check: () => boolean, ms: number, what: string) {
  const deadline = Date.now() + ms;
  while (!check()) {
    assert.ok(Date.now() < deadline, `${what} within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('NATS key-value leases', () => {
  let nats: NatsServer;
  const opened: NatsLeases[] = [];
  const open = async () => {
    const leases = await NatsLeases.connect(nats.url, { ttlMs: TTL });
    opened.push(leases);
    return leases;
  };
  before(async () => { nats = await startNats(); });
  after(async () => {
    for (const leases of opened) await leases.close().catch(() => {});
    await nats.stop();
  });

  it('lets one holder run at a time, and hands over at once when it releases', async () => {
    const name = `l${newId()}`;
    const log: Array<[string, string, number]> = [];
    const [a, b] = [await open(), await open()];
    const first = a.hold(name, recorder(log, 'a'));
    await until(() => first.holding, 2000, 'a takes the free lease');
    const second = b.hold(name, recorder(log, 'b'));
    await new Promise((resolve) => setTimeout(resolve, TTL * 1.5));
    assert.equal(second.holding, false, 'b never runs while a renews');
    const releasedAt = Date.now();
    await first.release();
    await until(() => second.holding, TTL, 'b takes over after a released');
    assert.ok(Date.now() - releasedAt < TTL, 'a release hands over without waiting for expiry');
    await second.release();
    assert.deepEqual(log.map(([who, what]) => `${who} ${what}`), ['a start', 'a stop', 'b start', 'b stop']);
  });

  it('takes over within a bounded time after the holding process is killed -9', async () => {
    const name = `l${newId()}`;
    const holder = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./lease-holder.ts', import.meta.url)), nats.url, name, String(TTL)],
      { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve, reject) => {
      holder.once('exit', (code) => reject(new Error(`holder exited with ${code}`)));
      createInterface({ input: holder.stdout! }).on('line', (line) => { if (line === 'started') resolve(); });
    });
    const log: Array<[string, string, number]> = [];
    const lease = (await open()).hold(name, recorder(log, 'b'));
    await new Promise((resolve) => setTimeout(resolve, TTL / 2));
    assert.equal(lease.holding, false);
    const killedAt = Date.now();
    holder.kill('SIGKILL');
    await until(() => lease.holding, TTL * 3, 'b takes over from the killed holder');
    const took = Date.now() - killedAt;
    assert.ok(took <= TTL * 2, `took ${took} ms`);
  });

  it('stops a holder that cannot renew before another starts', async () => {
    const name = `l${newId()}`;
    const log: Array<[string, string, number]> = [];
    const [a, b] = [await open(), await open()];
    const first = a.hold(name, recorder(log, 'a'));
    await until(() => first.holding, 2000, 'a takes the lease');
    const second = b.hold(name, recorder(log, 'b'));
    // a is cut off from NATS but alive: it must give up by itself.
    await (a as unknown as { connection: { close(): Promise<void> } }).connection.close();
    await until(() => second.holding, TTL * 3, 'b takes over');
    const aStopped = log.find(([who, what]) => who === 'a' && what === 'stop');
    const bStarted = log.find(([who, what]) => who === 'b' && what === 'start')!;
    assert.ok(aStopped && aStopped[2] < bStarted[2], `a stopped (${aStopped?.[2]}) before b started (${bStarted[2]})`);
    await second.release();
  });
  it('undoes a start that failed and gives its lease to the next attempt, or to another process, without waiting for expiry', async () => {
    const name = `l${newId()}`;
    const [a, b] = [await open(), await open()];
    let attempts = 0;
    let stops = 0;
    const failing = a.hold(name, {
      async start() { attempts++; throw new Error('the read store cannot be reached'); },
      async stop() { stops++; },
    });
    await until(() => attempts >= 1, 2000, 'a takes the free lease and tries to start');
    const log: Array<[string, string, number]> = [];
    const failedAt = Date.now();
    const second = b.hold(name, recorder(log, 'b'));
    // b looks every quarter of the time to live; the failed holder's key is gone, not left to expire.
    await until(() => second.holding || failing.holding, TTL, 'the lease is taken again');
    assert.ok(Date.now() - failedAt < TTL, 'before the failed holder\'s key would have expired');
    assert.equal(failing.holding, false, 'a never counts as holding with its work not started');
    assert.ok(stops >= 1, 'what a failed start may have begun is stopped');
    await failing.release();
    await second.release();
  });
});
