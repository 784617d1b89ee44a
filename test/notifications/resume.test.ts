// A webhook delivery interrupted between two attempts (Berth stopped, or its process killed, while
// it waited out the back-off) is finished after the restart: the next attempt is made once what
// was left of the back-off has passed, each attempt is recorded once, and a delivery the log shows
// ended is never sent again. On the embedded default (one process, in-process bus) and with the
// reactors apart over NATS JetStream.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { NatsBus } from '@berth/shared/adapters/bus/nats-bus';
import { httpClient, listeningBerth, type HttpClient } from '../support/http.ts';
import { startNats, type NatsServer } from '../support/nats.ts';
import { eventually, startRole, type RoleProcess } from '../support/role-process.ts';
import { killableBerth, notifyingBerth, signInAdmin, startReceiver, type Receiver } from './support.ts';

const ADMIN = { email: 'resume@berth.test', password: 'a long enough password' };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Post { delivery: string; at: number }

/** A receiver that answers 500 to the first POST of each delivery and 204 to every later one. */
async function failingOnce(): Promise<Receiver & { posts: Post[]; of(deliveryId: string): Post[] }> {
  const posts: Post[] = [];
  const receiver = await startReceiver((request, _body, response) => {
    const delivery = String(request.headers['x-berth-delivery']);
    const first = !posts.some((post) => post.delivery === delivery);
    posts.push({ delivery, at: Date.now() });
    response.writeHead(first ? 500 : 204).end();
  });
  return { ...receiver, posts, of: (deliveryId) => posts.filter((post) => post.delivery === deliveryId) };
}

/** The subscription's one delivery once `done` holds for it (bounded wait). */
async function deliveryWhen(api: HttpClient, subscriptionId: string, done: (delivery: any) => boolean, ms: number, what: string): Promise<any> {
  let last: unknown = null;
  return eventually(async () => {
    const [delivery] = await api.ok('notification.deliveries', { subscriptionId });
    last = delivery;
    return delivery && done(delivery) ? delivery : undefined;
  }, ms, what).catch((error: Error) => { throw new Error(`${error.message}: ${JSON.stringify(last)}`); });
}

const firstAttemptRecorded = (delivery: any) => delivery.status === 'pending' && delivery.attempts.length === 1;
const attemptsOf = (delivery: any) => delivery.attempts.map((attempt: any) => [attempt.attempt, attempt.status, attempt.ok]);

/** Subscribes to ProjectCreated, creates a project, and waits for the failed first attempt in the log. */
async function interruptibleDelivery(api: HttpClient, receiver: Receiver) {
  const { subscriptionId } = await api.ok('notification.create', { url: `${receiver.url}/hook`, eventTypes: ['ProjectCreated'] });
  await api.ok('project.create', { name: 'announced across a restart' });
  const delivery = await deliveryWhen(api, subscriptionId, firstAttemptRecorded, 10_000, 'the first attempt recorded');
  assert.deepEqual(attemptsOf(delivery), [[1, 500, false]]);
  return { subscriptionId, deliveryId: delivery.deliveryId as string, firstAt: Date.parse(delivery.attempts[0].at) };
}

/** Checks the delivery ended delivered on the second attempt, made once, not before its back-off. */
function assertResumed(delivery: any, receiver: ReturnType<typeof failingOnce> extends Promise<infer R> ? R : never, backoffMs: number) {
  assert.deepEqual(attemptsOf(delivery), [[1, 500, false], [2, 204, true]]);
  const [first, second] = delivery.attempts.map((attempt: any) => Date.parse(attempt.at));
  assert.ok(second - first >= backoffMs - 50, `the second attempt came ${second - first} ms after the first, before its ${backoffMs} ms back-off`);
  assert.equal(receiver.of(delivery.deliveryId).length, 2, `posts: ${JSON.stringify(receiver.of(delivery.deliveryId))}`);
}

describe('a webhook delivery interrupted between attempts, embedded (one process, in-process bus)', () => {
  let receiver: Awaited<ReturnType<typeof failingOnce>>;
  const cleanups: Array<() => Promise<unknown>> = [];
  before(async () => { receiver = await failingOnce(); });
  after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
    await receiver.close();
  });

  it('is finished after a stop and a start on the same data folder, waiting only what was left of the back-off', async () => {
    const BACKOFF = 2500;
    const first = await notifyingBerth([BACKOFF]);
    cleanups.push(() => first.stop());
    const api = await signInAdmin(first, ADMIN);
    const { subscriptionId, deliveryId, firstAt } = await interruptibleDelivery(api, receiver);
    await first.stop({ keepData: true });
    // Restarted once the whole back-off has passed: the second attempt is due at once, not a whole back-off later.
    await sleep(Math.max(0, firstAt + BACKOFF + 200 - Date.now()));
    assert.equal(receiver.of(deliveryId).length, 1, 'a stopped Berth posted again');
    const restartedAt = Date.now();
    const second = await listeningBerth({ dataDir: first.dataDir, config: { roles: ['api', 'projections', 'relay', 'reactors'], notifyRetryMs: [BACKOFF], notifyTimeoutMs: 5000 } });
    cleanups.push(() => second.stop());
    const again = httpClient(second.baseUrl);
    again.token = api.token;
    const delivered = await deliveryWhen(again, subscriptionId, (delivery) => delivery.status === 'delivered', 10_000, 'the delivery resumed after the restart');
    assertResumed(delivered, receiver, BACKOFF);
    const resumedAfter = Date.parse(delivered.attempts[1].at) - restartedAt;
    assert.ok(resumedAfter < BACKOFF, `the second attempt waited ${resumedAfter} ms after the restart: a whole back-off again`);
  });

  it('is finished after its process is killed (SIGKILL) and started again, and never sent again once delivered', async () => {
    const BACKOFF = 1500;
    const berth = await killableBerth({ BERTH_NOTIFY_RETRY_MS: String(BACKOFF), BERTH_NOTIFY_TIMEOUT_MS: '5000' }, cleanups, 'berth-resume-');
    const { start } = berth;
    const killed = await start();
    const api = await berth.signIn(ADMIN);
    const { subscriptionId, deliveryId } = await interruptibleDelivery(api, receiver);
    killed.child.kill('SIGKILL');
    await killed.exited;
    const restarted = await start();
    const delivered = await deliveryWhen(api, subscriptionId, (delivery) => delivery.status === 'delivered', 15_000, 'the delivery resumed after the kill')
      .catch((error: Error) => { throw new Error(`${error.message}\n${restarted.output.join('')}`); });
    assertResumed(delivered, receiver, BACKOFF);

    // A delivery the log shows ended is left alone by the next start.
    restarted.child.kill('SIGTERM');
    await restarted.exited;
    await start();
    await sleep(BACKOFF + 500);
    assert.deepEqual(attemptsOf(await deliveryWhen(api, subscriptionId, () => true, 5000, 'the delivery')), [[1, 500, false], [2, 204, true]]);
    assert.equal(receiver.of(deliveryId).length, 2, 'an ended delivery was sent again');
  });
});

describe('a webhook delivery interrupted between attempts, over NATS JetStream', () => {
  let receiver: Awaited<ReturnType<typeof failingOnce>>;
  const cleanups: Array<() => Promise<unknown>> = [];
  /** A nats-server of the test's own: the relay's checkpoint and the durable consumers live in it. */
  const ownNats = async (): Promise<NatsServer> => {
    const nats = await startNats();
    cleanups.push(() => nats.stop());
    return nats;
  };
  before(async () => { receiver = await failingOnce(); });
  after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
    await receiver.close();
  });

  it('stops at once instead of waiting out the retries, and is finished after the start', async () => {
    const BACKOFF = 3000;
    const nats = await ownNats();
    const config = { roles: ['api', 'projections', 'relay', 'reactors'] as const, notifyRetryMs: [BACKOFF], notifyTimeoutMs: 5000, natsUrl: nats.url };
    const first = await listeningBerth({ config: { ...config, roles: [...config.roles] } });
    cleanups.push(() => first.stop());
    const api = await signInAdmin(first, ADMIN);
    const { subscriptionId, deliveryId } = await interruptibleDelivery(api, receiver);
    const stopping = Date.now();
    await first.stop({ keepData: true });
    const took = Date.now() - stopping;
    assert.equal(receiver.of(deliveryId).length, 1, 'the stopping Berth went on with the retries');
    assert.ok(took < BACKOFF / 2, `stopping took ${took} ms: it waited for the retries`);
    const second = await listeningBerth({ dataDir: first.dataDir, config: { ...config, roles: [...config.roles] } });
    cleanups.push(() => second.stop());
    const again = httpClient(second.baseUrl);
    again.token = api.token;
    const delivered = await deliveryWhen(again, subscriptionId, (delivery) => delivery.status === 'delivered', 10_000, 'the delivery resumed after the restart');
    assertResumed(delivered, receiver, BACKOFF);
  });

  it('is finished by the next reactors process after a kill -9, well before the bus would redeliver the event', async () => {
    const BACKOFF = 1500;
    const nats = await ownNats();
    const api = await listeningBerth({ config: { natsUrl: nats.url } });
    cleanups.push(() => api.stop());
    const env = {
      BERTH_DATA_DIR: api.dataDir, BERTH_NATS_URL: nats.url, BERTH_LOG_LEVEL: 'silent', BERTH_SQLITE_SYNCHRONOUS: 'NORMAL',
      BERTH_NOTIFY_RETRY_MS: String(BACKOFF), BERTH_NOTIFY_TIMEOUT_MS: '5000',
    };
    const role = (name: string): RoleProcess => {
      const process = startRole(name, env);
      cleanups.push(async () => { process.child.kill('SIGKILL'); await process.exited; });
      return process;
    };
    role('relay');
    const reactors = role('reactors');
    // The reactors process is up once its last durable consumer exists.
    const bus = await NatsBus.connect(nats.url);
    try {
      await eventually(async () => (await bus.pending()).has('notifications'), 60_000, 'the reactors to start');
    } finally {
      await bus.close();
    }
    const client = await signInAdmin(api, ADMIN);
    const { subscriptionId } = await interruptibleDelivery(client, receiver);
    reactors.child.kill('SIGKILL');
    await reactors.exited;
    const restarted = role('reactors');
    // JetStream would hand the unacknowledged event out again only after its 30 s ack wait.
    const delivered = await deliveryWhen(client, subscriptionId, (delivery) => delivery.status === 'delivered', 20_000, 'the delivery resumed after the kill')
      .catch((error: Error) => { throw new Error(`${error.message}\n${restarted.output.join('')}`); });
    assertResumed(delivered, receiver, BACKOFF);

    // JetStream hands the killed process's unacknowledged event out again after its ack wait: nothing is posted or recorded again.
    const watcher = await NatsBus.connect(nats.url);
    try {
      await eventually(async () => (await watcher.pending()).get('notifications') === 0, 60_000, 'the event handed out again and acknowledged');
    } finally {
      await watcher.close();
    }
    assert.deepEqual(attemptsOf(await deliveryWhen(client, subscriptionId, () => true, 5000, 'the delivery')), [[1, 500, false], [2, 204, true]]);
    assert.equal(receiver.of(delivered.deliveryId).length, 2, 'the event handed out again was posted again');
  });
});
