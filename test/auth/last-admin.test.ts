// Berth is never left without an admin: the first admin (made with the setup token) keeps its role
// and its account, so admins demoting each other, even at once, always leave it; other admins may
// still be demoted, and removed once they are users.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { AnyAggregate } from '@berth/shared/domain/aggregate';
import { accountAggregate } from '@berth/shared/domain/account/account';
import { pathsOf, startBerth, type Answer, type TestBerth } from '../support/berth.ts';
import { executeInLog } from '../support/log.ts';
import { invitedUser, type TestUser } from '../support/users.ts';

const ROUNDS = 25;

describe('the last admin', () => {
  // A Berth of its own for each test: one that finds a lock-out leaves the next nothing to work with.
  let berth: TestBerth;
  let firstId: string;
  beforeEach(async () => {
    berth = await startBerth();
    firstId = (await berth.ok('auth.get')).id;
  });
  afterEach(() => berth.stop());

  const setRole = (id: string, rol: 'admin' | 'user', token = berth.token) =>
    berth.call('auth.updateByAdmin', { id, email: null, password: null, rol }, { token });
  const roleOf = async (id: string) => (await berth.ok('auth.one', { id })).rol as string;
  // Read beside the API: on a lock-out no account is left to ask it.
  const admins = async () => (await berth.berth.infrastructure.readStore.find(accountAggregate.name, 'rol', 'admin'))
    .map((account) => String(account.id));

  async function newAdmin(): Promise<TestUser> {
    const user = await invitedUser(berth);
    assert.equal((await setRole(user.id, 'admin')).status, 200);
    return user;
  }

  /** Asserts a 409 naming `field`, saying why, and nothing appended by it. */
  async function refused(call: () => Promise<Answer>, field: string, why: RegExp) {
    const head = await berth.head();
    const answer = await call();
    assert.equal(answer.status, 409, JSON.stringify(answer.body));
    assert.equal(answer.body.code, 'CONFLICT');
    assert.deepEqual(pathsOf(answer.body), [field]);
    assert.match(answer.body.message, why);
    assert.equal(await berth.head(), head, 'appended while refused');
  }

  it('two admins demoting each other at once, many times: an admin always remains, and the loser is refused (409, or 403 when it was demoted first)', async () => {
    const second = await newAdmin();
    let conflicts = 0;
    for (let round = 0; round < ROUNDS; round++) {
      if (await roleOf(second.id) !== 'admin') assert.equal((await setRole(second.id, 'admin')).status, 200);
      const [byFirst, bySecond] = await Promise.all([setRole(second.id, 'user'), setRole(firstId, 'user', second.token)]);
      assert.ok((await admins()).length >= 1, `round ${round}: no admin left`);
      const said = `round ${round}: ${JSON.stringify([byFirst.body, bySecond.body])}`;
      assert.equal(byFirst.status, 200, said);
      // The second loses either way: refused by the rule, or, when its own demotion landed before its request was let in, no admin any more.
      assert.ok([409, 403].includes(bySecond.status), said);
      if (bySecond.status === 409) {
        assert.deepEqual(pathsOf(bySecond.body), ['rol']);
        assert.match(bySecond.body.message, /first admin/);
        conflicts++;
      }
      assert.equal(await roleOf(firstId), 'admin');
    }
    assert.ok(conflicts > 0, 'no round raced the two demotions');
    assert.equal((await berth.call('user.all')).status, 200, 'the first admin still reaches the admin operations');
  });

  it('refuses demoting the first admin, then removing it: demoting first is no way around its staying', async () => {
    const second = await newAdmin();
    await refused(() => setRole(firstId, 'user', second.token), 'rol', /first admin/);
    await refused(() => berth.call('admin.removeUser', { authId: firstId }, { token: second.token }), 'authId', /first admin/);
    assert.equal(await roleOf(firstId), 'admin');
    assert.equal((await berth.call('auth.get')).status, 200, "the first admin's token still works");
  });

  it('demotes another admin while the first remains, even two at once, and removes it once it is a user', async () => {
    const second = await newAdmin();
    const third = await newAdmin();
    await refused(() => berth.call('admin.removeUser', { authId: third.id }), 'authId', /admin/);
    assert.equal((await setRole(third.id, 'user', second.token)).status, 200);
    assert.equal((await berth.call('admin.removeUser', { authId: third.id }, { token: second.token })).status, 200);
    const fourth = await newAdmin();
    // The first admin stays whatever these two do, so neither is refused for it (one may find it is no admin any more).
    const answers = await Promise.all([setRole(fourth.id, 'user', second.token), setRole(second.id, 'user', fourth.token)]);
    assert.ok(answers.every((answer) => answer.status === 200 || answer.status === 403), JSON.stringify(answers.map((answer) => answer.body)));
    assert.ok(answers.some((answer) => answer.status === 200));
    assert.ok((await admins()).includes(firstId));
  });

  it('refuses every demotion while the first admin is no longer one (a log from before this rule), until it is again', async () => {
    const second = await newAdmin();
    const third = await newAdmin();
    // As an earlier version let an admin do.
    await executeInLog(berth, accountAggregate as unknown as AnyAggregate, firstId, { type: 'UpdateProfile', data: { id: firstId, rol: 'user' } });
    await refused(() => setRole(third.id, 'user', second.token), 'rol', /last admin/);
    await refused(() => berth.call('admin.removeUser', { authId: firstId }, { token: second.token }), 'authId', /first admin/);
    assert.equal((await setRole(firstId, 'admin', second.token)).status, 200);
    assert.equal((await setRole(third.id, 'user', second.token)).status, 200);
    assert.equal(await roleOf(firstId), 'admin');
  });
});
