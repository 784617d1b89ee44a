// An admin account is never removed: not even by a removal raced against the promotion that makes
// the account an admin (the removal is decided on the account as the log holds it when appended).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { pathsOf, startBerth, type TestBerth } from '../support/berth.ts';
import { invitedUser } from '../support/users.ts';

const ROUNDS = 25;

describe('removing an account being made an admin', () => {
  let berth: TestBerth;
  before(async () => { berth = await startBerth(); });
  after(() => berth.stop());

  const eventsOf = async (id: string) =>
    (await berth.berth.infrastructure.eventStore.readStream(`account-${id}`)).events.map((event) => event as { type: string; data: { rol?: string } });

  it('never removes an account that was made an admin, many times over', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const user = await invitedUser(berth);
      const [promotion, removal] = await Promise.all([
        berth.call('auth.updateByAdmin', { id: user.id, email: null, password: null, rol: 'admin' }),
        berth.call('admin.removeUser', { authId: user.id }),
      ]);
      const events = await eventsOf(user.id);
      const said = `round ${round}: promotion ${promotion.status}, removal ${removal.status} ${JSON.stringify(removal.body)}; ${events.map((e) => e.type).join(' → ')}`;
      assert.ok(!(promotion.status === 200 && removal.status === 200), said);
      const promotedAt = events.findIndex((event) => event.type === 'ProfileUpdated' && event.data.rol === 'admin');
      const removedAt = events.findIndex((event) => event.type === 'AccountRemoved');
      assert.ok(promotedAt === -1 || removedAt === -1, said);
      if (removal.status === 409) assert.deepEqual(pathsOf(removal.body), ['authId'], said);
    }
  });

  it('refuses removing an admin, naming authId, and appends nothing', async () => {
    const user = await invitedUser(berth);
    await berth.ok('auth.updateByAdmin', { id: user.id, email: null, password: null, rol: 'admin' });
    await berth.refused('admin.removeUser', { authId: user.id }, 409, 'authId');
  });
});
