// registry.testRegistry makes the engine (as root) reach any host:port the caller names: with it
// open to every account, any account could probe loopback and internal ports through the answer.
// Admin only, as the registry operations that write and destination.testConnection are.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { RegistryAuth } from '@berth/shared/ports/container-engine';
import { startBerth, type TestBerth } from '../support/berth.ts';
import { ALL_FLAGS, invitedUser, type TestUser } from '../support/users.ts';

let berth: TestBerth;
let user: TestUser;
const asked: RegistryAuth[] = [];
before(async () => {
  berth = await startBerth();
  user = await invitedUser(berth, ALL_FLAGS);
  // Counts what the engine is asked, and answers as a reachable registry would.
  Object.assign(berth.berth.infrastructure.engine, { checkAuth: async (auth: RegistryAuth) => { asked.push(auth); } });
});
after(() => berth.stop());

const probe = { registryName: 'x', username: 'u', password: 'p', registryUrl: '127.0.0.1:43899', registryType: 'cloud' };

it('refuses registry.testRegistry to a user with every permission, without asking the engine', async () => {
  const head = await berth.head();
  const answer = await berth.call('registry.testRegistry', probe, { token: user.token });
  assert.equal(answer.status, 403, JSON.stringify(answer.body));
  assert.equal(answer.body.code, 'FORBIDDEN');
  assert.deepEqual(asked, []);
  assert.equal(await berth.head(), head);
});

it('lets the admin test a registry', async () => {
  const answer = await berth.call('registry.testRegistry', probe);
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  assert.deepEqual(asked.map((auth) => auth.serveraddress), ['127.0.0.1:43899']);
});
