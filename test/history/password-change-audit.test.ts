// An auditor sees in the history that a password was changed, by its owner or reset by an admin,
// and from when the account's earlier tokens stopped working; never the hash.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { RecordedEvent } from '@berth/shared/events/event';
import { listeningBerth, signInFirstAdmin, type HttpClient, type ListeningBerth } from '../support/http.ts';

const ADMIN = { email: 'auditing@berth.test', password: 'a long enough password' };

describe('a password change in the history', () => {
  let server: ListeningBerth;
  let api: HttpClient;
  let adminId: string;
  before(async () => {
    server = await listeningBerth();
    api = await signInFirstAdmin(server, ADMIN);
    adminId = (await api.ok('auth.get')).id;
  });
  after(() => server.stop());

  it('shows an admin\'s reset and the owner\'s change as passwordChanged with tokensValidFrom, without a hash', async () => {
    const invitation = await api.ok('admin.createUserInvitation', { email: 'audited@berth.test' });
    await api.ok('auth.createUser', { id: invitation.id, token: invitation.token, password: 'first password' });
    await api.ok('auth.updateByAdmin', { id: invitation.id, email: null, password: 'reset by the admin' });
    const token = (await api.call('auth.login', { email: 'audited@berth.test', password: 'reset by the admin' }, { token: null })).body.token;
    assert.equal((await api.call('auth.update', { email: null, password: 'changed by its owner' }, { token })).status, 200);

    const history = (await api.ok('events.stream', { stream: `account-${invitation.id}` })).events as RecordedEvent[];
    const dataOf = (event: RecordedEvent) => event.data as Record<string, unknown>;
    const changes = history.filter((event) => event.type === 'ProfileUpdated' && dataOf(event).passwordChanged === true);
    assert.deepEqual(changes.map((event) => event.metadata.actorId), [adminId, invitation.id], JSON.stringify(history.map((event) => event.data)));
    for (const change of changes) assert.equal(typeof dataOf(change).tokensValidFrom, 'number', JSON.stringify(change.data));
    assert.doesNotMatch(JSON.stringify(history), /passwordHash|scrypt\$/);
  });
});
