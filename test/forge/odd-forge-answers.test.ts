// A forge that fails is no refusal of the caller's request: one that answers something its API
// never answers (JSON of another shape, an HTML page) or does not answer at all makes
// admin.getRepositories and admin.getBranches answer 503 UNAVAILABLE in the spec's error shape,
// saying what the forge answered; one that refuses the app's credentials stays a 409.
// STAND-IN: the forge is a small server of this test that answers a token, then what a case sets.
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { startBerth, type TestBerth } from '../support/berth.ts';
import { freePort } from '../support/http.ts';

interface Answer { readonly status: number; readonly type: string; readonly body: string }
const json = (body: unknown, status = 200): Answer => ({ status, type: 'application/json', body: JSON.stringify(body) });

describe('a forge that answers oddly or not at all', () => {
  let berth: TestBerth;
  let forge: Server;
  let apiUrl: string;
  /** What the forge answers to each path but the installation token's. */
  let answer: (path: string) => Answer = () => json({});
  const privateKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  before(async () => {
    forge = createServer((request, response) => {
      const { status, type, body } = request.url?.endsWith('/access_tokens') ? json({ token: 'ghs_odd' }, 201) : answer(request.url ?? '');
      response.writeHead(status, { 'content-type': type }).end(body);
    });
    await new Promise<void>((resolve) => forge.listen(0, '127.0.0.1', resolve));
    apiUrl = `http://127.0.0.1:${(forge.address() as AddressInfo).port}`;
    berth = await startBerth();
  });
  after(async () => {
    await berth.stop();
    await new Promise((resolve) => forge.close(resolve));
  });
  const save = (url = apiUrl) => berth.ok('admin.saveForgeApp', { apiUrl: url, appId: '1', installationId: '2', privateKey });

  /** Asserts a 503 UNAVAILABLE in the spec's error shape whose message matches `reason`. */
  async function unavailable(operation: string, input: Record<string, unknown>, reason: RegExp): Promise<void> {
    const head = await berth.head();
    const refusal = await berth.call(operation, input);
    assert.equal(refusal.status, 503, JSON.stringify(refusal.body));
    assert.deepEqual(Object.keys(refusal.body).sort(), ['code', 'issues', 'message']);
    assert.equal(refusal.body.code, 'UNAVAILABLE');
    assert.match(refusal.body.message, reason);
    assert.ok(refusal.body.issues.every((issue: { message: unknown }) => typeof issue.message === 'string'));
    assert.equal(refusal.headers['retry-after'], '1');
    assert.equal(await berth.head(), head);
  }

  it('answers 503 when the forge answers JSON that is not a repository list', async () => {
    await save();
    answer = () => json({ total_count: 1 });
    await unavailable('admin.getRepositories', {}, /forge answered something that is not a repository list/);
    answer = () => json({ repositories: [{ name: 'shop' }] });
    await unavailable('admin.getRepositories', {}, /not a repository list/);
  });

  it('answers 503 when the forge answers branches that are not a list', async () => {
    await save();
    answer = () => json({ name: 'main' });
    await unavailable('admin.getBranches', { owner: 'acme', repo: 'shop' }, /forge answered something that is not a branch list/);
  });

  it('answers 503 when the forge answers an HTML page with 200, never a PARSE_ERROR of a body the client did not send', async () => {
    await save();
    answer = () => ({ status: 200, type: 'text/html', body: '<html><body>Sign in</body></html>' });
    await unavailable('admin.getRepositories', {}, /forge answered something that is not a repository list/);
    await unavailable('admin.getBranches', { owner: 'acme', repo: 'shop' }, /not a branch list/);
  });

  it('answers 503 when the forge fails with a 5xx of its own', async () => {
    await save();
    answer = () => json({ message: 'down for maintenance' }, 502);
    await unavailable('admin.getRepositories', {}, /forge answered 502/);
  });

  it('answers 503 when the forge cannot be reached', async () => {
    await save(`http://127.0.0.1:${await freePort()}`);
    await unavailable('admin.getRepositories', {}, /did not answer/);
  });

  it('still answers 409 with the forge\'s reason when it refuses the app\'s credentials, and lists what it answers well', async () => {
    await save();
    answer = () => json({ message: 'Bad credentials' }, 401);
    const refusal = await berth.call('admin.getRepositories');
    assert.equal(refusal.status, 409);
    assert.match(refusal.body.message, /forge answered 401.*Bad credentials/);
    answer = (path) => (path.startsWith('/installation/repositories')
      ? json({ repositories: [{ name: 'shop', owner: { login: 'acme' }, clone_url: 'https://forge.test/acme/shop.git' }] })
      : json([{ name: 'main' }]));
    assert.deepEqual(await berth.ok('admin.getRepositories'), [{ name: 'shop', owner: 'acme', url: 'https://forge.test/acme/shop.git' }]);
    assert.deepEqual(await berth.ok('admin.getBranches', { owner: 'acme', repo: 'shop' }), [{ name: 'main' }]);
  });
});
