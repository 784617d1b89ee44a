// A subscription names only event types notifications send: a typo, or a type of the notifications'
// own (never sent), is refused naming it, as is a list or a URL past any sensible length. The types
// sendable are those of Berth's aggregates, but the notifications' own.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { aggregates } from '@berth/shared/domain/index';
import { deliveryAggregate } from '@berth/shared/domain/notification/delivery';
import { isSendable, SENDABLE_TYPES } from '@berth/shared/domain/notification/sendable';
import { subscriptionAggregate } from '@berth/shared/domain/notification/subscription';
import type { HttpClient, ListeningBerth } from '../support/http.ts';
import { notifyingBerth, signInAdmin } from './support.ts';

const ADMIN = { email: 'types@berth.test', password: 'a long enough password' };

/** Whether `aggregate` folds an event of `type` (its evolve ends in the exhaustive check for one it does not know). */
function folds(aggregate: (typeof aggregates)[number], type: string): boolean {
  try {
    aggregate.evolve(null, { type, data: {} });
    return true;
  } catch (error) {
    return !(error instanceof Error && error.message.startsWith('Unhandled case'));
  }
}

describe('the event types a subscription may name', () => {
  it('are those of every aggregate but the notifications\' own', () => {
    for (const aggregate of aggregates.filter((one) => one !== subscriptionAggregate && one !== deliveryAggregate)) {
      assert.ok(SENDABLE_TYPES.some((type) => folds(aggregate, type)), `no sendable type of the ${aggregate.name} aggregate`);
    }
    for (const type of ['DeliveryQueued', 'DeliveryAttempted', 'DeliveryFailed', 'SubscriptionCreated', 'SubscriptionRemoved']) {
      assert.equal(isSendable(type), false, type);
    }
    assert.ok(isSendable('DeploymentFailed') && isSendable('ProjectCreated'));
  });
});

describe('creating a subscription', () => {
  let server: ListeningBerth;
  let api: HttpClient;
  before(async () => {
    server = await notifyingBerth([1000]);
    api = await signInAdmin(server, ADMIN);
  });
  after(() => server.stop());

  /** Expects 400 naming `field` alone (or one item of it), whose message holds each of `quoted`, and nothing appended. */
  async function refused(input: Record<string, unknown>, field: string, quoted: string[] = []): Promise<void> {
    const head = await server.berth.infrastructure.eventStore.head();
    const answer = await api.call('notification.create', input);
    assert.equal(answer.status, 400, JSON.stringify(answer.body));
    assert.equal(answer.body.code, 'BAD_REQUEST');
    assert.deepEqual(answer.body.issues.map((issue: { path: string }) => issue.path.split('.')[0]), [field], JSON.stringify(answer.body));
    for (const text of quoted) assert.ok(answer.body.issues[0].message.includes(text), answer.body.issues[0].message);
    assert.equal(await server.berth.infrastructure.eventStore.head(), head);
  }

  it('refuses an unknown event type and one never sent, naming eventTypes and the type', async () => {
    const url = 'https://ci.example.test/hook';
    await refused({ url, eventTypes: ['DeploymentFaild'] }, 'eventTypes', ['"DeploymentFaild"']);
    await refused({ url, eventTypes: ['ProjectCreated', 'DeliveryFailed'] }, 'eventTypes', ['"DeliveryFailed"']);
    await refused({ url, eventTypes: ['SubscriptionCreated', 'DeploymentFailed', 'deploymentfailed'] }, 'eventTypes', ['"SubscriptionCreated"', '"deploymentfailed"']);
  });

  it('refuses more types than there are to send, a type name past any, and a URL past 2048 characters', async () => {
    await refused({ url: 'https://ci.example.test/hook', eventTypes: Array.from({ length: 20_000 }, () => 'ProjectCreated') }, 'eventTypes');
    await refused({ url: 'https://ci.example.test/hook', eventTypes: ['X'.repeat(5000)] }, 'eventTypes');
    await refused({ url: `https://ci.example.test/${'a'.repeat(200_000)}`, eventTypes: ['ProjectCreated'] }, 'url');
  });

  it('takes every sendable type at once, and a URL of 2048 characters', async () => {
    const all = await api.ok('notification.create', { url: 'https://ci.example.test/all', eventTypes: [...SENDABLE_TYPES] });
    assert.equal(all.eventTypes.length, SENDABLE_TYPES.length);
    const url = `https://ci.example.test/${'a'.repeat(2048 - 'https://ci.example.test/'.length)}`;
    assert.equal((await api.ok('notification.create', { url, eventTypes: ['DeploymentFailed'] })).url, url);
  });
});
