// auth.createAdmin is decided by the setup token before its payload: the token's holder sees
// what is wrong with the payload, anyone else only that the token is missing.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '@berth/command-api/server';
import { announceSetupToken } from '@berth/command-api/auth/setup-token';
import { configFrom } from '@berth/shared/runtime/config';
import { launch } from '@berth/shared/runtime/launch';

describe('auth.createAdmin before an admin exists', () => {
  let app: FastifyInstance;
  let stop: () => Promise<void>;
  let setupToken: string;
  const dataDir = mkdtempSync(join(tmpdir(), 'berth-setup-'));
  before(async () => {
    const berth = await launch(configFrom({}, { dataDir, host: '127.0.0.1', port: 0, roles: ['projections'], logLevel: 'silent' }));
    app = buildServer(berth.infrastructure, { logger: false });
    await announceSetupToken(berth.infrastructure, () => {});
    setupToken = readFileSync(join(dataDir, 'setup-token'), 'utf8').trim();
    stop = async () => { await app.close(); await berth.stop(); rmSync(dataDir, { recursive: true, force: true }); };
  });
  after(() => stop());

  const createAdmin = (payload: unknown, token?: string) => app.inject({
    method: 'POST', url: '/api/auth.createAdmin', payload: payload as Record<string, unknown>,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });

  it('answers 401 to a bad payload without the setup token', async () => {
    for (const token of [undefined, 'not-the-setup-token']) {
      const answer = await createAdmin({ email: 'nope', password: 'x' }, token);
      assert.equal(answer.statusCode, 401, answer.body);
    }
  });

  it('answers 400 naming the field to the setup token holder, then creates the admin', async () => {
    const refused = await createAdmin({ email: 'nope', password: 'a long password' }, setupToken);
    assert.equal(refused.statusCode, 400, refused.body);
    assert.deepEqual(refused.json().issues, [{ message: 'email must be an email address', path: 'email' }]);
    const created = await createAdmin({ email: 'root@berth.test', password: 'a long password' }, setupToken);
    assert.equal(created.statusCode, 200, created.body);
    assert.equal(created.json().email, 'root@berth.test');
    assert.equal((await createAdmin({ email: 'nope' }, setupToken)).statusCode, 409);
  });
});
