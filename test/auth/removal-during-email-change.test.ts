// An account removed while its owner moves it to a new email lets go of the email it has when it is
// removed: neither the old nor the new one stays claimed by an account that is gone.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startBerth, type TestBerth } from '../support/berth.ts';
import { invitedUser } from '../support/users.ts';

const ROUNDS = 40;

describe('removing an account while its email changes', () => {
  let berth: TestBerth;
  before(async () => { berth = await startBerth(); });
  after(() => berth.stop());

  const inviteAnswers = async (email: string) => {
    const answer = await berth.call('admin.createUserInvitation', { email });
    if (answer.status === 200) await berth.ok('admin.removeUser', { authId: answer.body.id });
    return answer.status;
  };

  it('leaves no email claimed by the removed account, many times over', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const user = await invitedUser(berth);
      const target = `moved${round}-${Date.now()}@berth.test`;
      const [update, removal] = await Promise.all([
        berth.call('auth.update', { email: target, password: null }, { token: user.token }),
        // Started a little later each round, so that some round lands it between the update's read and its append.
        new Promise((resolve) => setTimeout(resolve, round % 8)).then(() => berth.call('admin.removeUser', { authId: user.id })),
      ]);
      const said = `round ${round}: update ${update.status} ${JSON.stringify(update.body)}, removal ${removal.status} ${JSON.stringify(removal.body)}`;
      // 401: the removal came first, and its token ended with it.
      assert.ok([200, 401, 404, 409].includes(update.status), said);
      assert.ok([200, 409].includes(removal.status), said);
      const kept = await berth.call('auth.one', { id: user.id });
      if (kept.status === 200) {
        // Still there: it holds its current email, and only that one.
        const free = kept.body.email === target ? user.email : target;
        assert.equal(await inviteAnswers(free), 200, `${said}: ${free} stayed claimed`);
      } else {
        assert.equal(kept.status, 404, said);
        assert.equal(await inviteAnswers(target), 200, `${said}: ${target} stayed claimed by the removed account`);
        assert.equal(await inviteAnswers(user.email), 200, `${said}: ${user.email} stayed claimed by the removed account`);
      }
    }
  });
});
