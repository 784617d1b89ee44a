// Behind a reverse proxy every request comes from the proxy: with BERTH_TRUSTED_PROXIES naming it,
// a sign-in counts against the address the proxy saw (the right-most X-Forwarded-For entry that is
// not a trusted proxy), so one client's guesses lock out no one else; a peer not named is its own
// client, whatever it sends. Driven over real TCP from distinct loopback peers (Linux answers on
// all of 127.0.0.0/8, and on ::1).
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { configFrom } from '@berth/shared/runtime/config';
import { ADMIN, startBerth, type TestBerth } from '../support/berth.ts';
import { startRole } from '../support/role-process.ts';

const LIMITS = { attemptsPerAccount: 5, attemptsPerAddress: 3, attemptWindowSeconds: 600 };
const PROXY_V4 = '127.0.0.2';
const PROXY_V6 = '::1';
const CLIENT = '127.0.0.3';

interface Peer {
  /** The address the request leaves from. */
  readonly from: string;
  readonly forwardedFor?: string;
}

/** POST auth.login over TCP from `peer`; answers the status. */
function signIn(port: number, peer: Peer, body: object): Promise<number> {
  const host = peer.from.includes(':') ? '::1' : '127.0.0.1';
  return new Promise((resolve, reject) => {
    const headers = { 'content-type': 'application/json', ...(peer.forwardedFor && { 'x-forwarded-for': peer.forwardedFor }) };
    const call = request({ host, port, localAddress: peer.from, path: '/api/auth.login', method: 'POST', headers, agent: false }, (answer) => {
      answer.resume();
      answer.on('end', () => resolve(answer.statusCode!));
    });
    call.on('error', reject);
    call.end(JSON.stringify(body));
  });
}

let guesses = 0;
/** A wrong password for an email no account has: it counts against the address only. */
const guess = () => ({ email: `nobody-${++guesses}@berth.test`, password: 'a wrong guess' });

/** A Berth listening on every loopback address, IPv4 and IPv6, with `env`. */
async function listening(env: Record<string, string>): Promise<{ berth: TestBerth; port: number }> {
  const berth = await startBerth({ config: LIMITS, env });
  await berth.app.listen({ host: '::', port: 0 });
  const address = berth.app.server.address();
  return { berth, port: typeof address === 'object' && address ? address.port : 0 };
}

/** Uses up `peer`'s budget of failed sign-ins: each guess refused as wrong, then none checked. */
async function exhaust(port: number, peer: Peer) {
  for (let i = 0; i < LIMITS.attemptsPerAddress; i++) assert.equal(await signIn(port, peer, guess()), 401);
  assert.equal(await signIn(port, peer, guess()), 429, 'the guesser is refused once past its own budget');
}

describe(`behind trusted proxies (BERTH_TRUSTED_PROXIES=${PROXY_V4}, ${PROXY_V6})`, () => {
  let berth: TestBerth;
  let port: number;
  before(async () => ({ berth, port } = await listening({ BERTH_TRUSTED_PROXIES: `${PROXY_V4}, ${PROXY_V6}` })));
  after(() => berth.stop());

  it('one client’s wrong passwords do not lock another client out of signing in', async () => {
    await exhaust(port, { from: PROXY_V4, forwardedFor: '198.51.100.7' });
    assert.equal(await signIn(port, { from: PROXY_V4, forwardedFor: '198.51.100.8' }, ADMIN), 200);
    assert.equal(await signIn(port, { from: PROXY_V6, forwardedFor: '2001:db8::8' }, ADMIN), 200, 'through the IPv6 proxy too');
  });

  it('counts a client by the address its proxy appended, whatever the client forged before it', async () => {
    const forgedThenSeen = (i: number) => ({ from: PROXY_V4, forwardedFor: `203.0.113.${i}, 198.51.100.9` });
    for (let i = 0; i < LIMITS.attemptsPerAddress; i++) assert.equal(await signIn(port, forgedThenSeen(i), guess()), 401);
    assert.equal(await signIn(port, forgedThenSeen(99), ADMIN), 429);
  });

  it('records the client’s address in the sign-in counts, not the proxy’s', async () => {
    const log = await berth.eventLog();
    assert.match(log, /sign-in:address:198\.51\.100\.7"/);
    assert.doesNotMatch(log, /sign-in:address:(::ffff:)?127\.0\.0\.2"/);
    assert.doesNotMatch(log, /sign-in:address:203\.0\.113\./);
  });

  it('ignores X-Forwarded-For from a peer it does not trust: its budget is its own address', async () => {
    const forging = (i: number) => ({ from: CLIENT, forwardedFor: `203.0.113.${i}` });
    for (let i = 0; i < LIMITS.attemptsPerAddress; i++) assert.equal(await signIn(port, forging(i), guess()), 401);
    assert.equal(await signIn(port, forging(50), ADMIN), 429, 'a new forged address is no new budget');
    assert.doesNotMatch(await berth.eventLog(), /sign-in:address:203\.0\.113\./);
  });
  it('counts a client reached directly over IPv4 and the same client forwarded by the proxy as one', async () => {
    const direct = '127.0.0.4'; // on a dual-stack socket, the peer is ::ffff:127.0.0.4
    await exhaust(port, { from: direct });
    assert.equal(await signIn(port, { from: PROXY_V4, forwardedFor: direct }, ADMIN), 429);
  });

  it('counts an IPv6 client by its /64: a fresh address in it is no fresh budget, another /64 is', async () => {
    const inSite = (host: number) => ({ from: PROXY_V6, forwardedFor: `2001:db8:0:1::${host}` });
    for (let i = 1; i <= LIMITS.attemptsPerAddress; i++) assert.equal(await signIn(port, inSite(i), guess()), 401);
    assert.equal(await signIn(port, inSite(99), ADMIN), 429);
    assert.equal(await signIn(port, { from: PROXY_V6, forwardedFor: '2001:db8:0:2::1' }, ADMIN), 200);
  });
});

describe('without BERTH_TRUSTED_PROXIES', () => {
  let berth: TestBerth;
  let port: number;
  before(async () => ({ berth, port } = await listening({})));
  after(() => berth.stop());

  it('counts every sign-in against its TCP peer, whatever X-Forwarded-For says (as before)', async () => {
    await exhaust(port, { from: PROXY_V4, forwardedFor: '198.51.100.7' });
    assert.equal(await signIn(port, { from: PROXY_V4, forwardedFor: '198.51.100.8' }, ADMIN), 429);
    assert.equal(await signIn(port, { from: CLIENT }, ADMIN), 200);
  });
});

describe('BERTH_TRUSTED_PROXIES values', () => {
  const message = (entry: string, raw: string) =>
    `BERTH_TRUSTED_PROXIES must be a comma-separated list of IP addresses and CIDR ranges (IPv4 /1-32, IPv6 /1-128) (got "${entry}" in "${raw}")`;

  it('takes addresses and ranges of both families, spaces around commas', () => {
    assert.deepEqual(configFrom({ BERTH_TRUSTED_PROXIES: ' 10.0.0.0/8, 192.0.2.1 ,fd00::/8,::1' }).trustedProxies, ['10.0.0.0/8', '192.0.2.1', 'fd00::/8', '::1']);
    assert.deepEqual(configFrom({}).trustedProxies, [], 'no proxy is trusted by default');
  });

  it('refuses an entry that is no address or range, naming it', () => {
    for (const [raw, entry] of [
      ['proxy.example', 'proxy.example'], ['10.0.0.1,', ''], ['10.0.0.0/33', '10.0.0.0/33'], ['::1/129', '::1/129'],
      // Every peer, or a netmask or a name proxy-addr knows: not an address or a CIDR range.
      ['0.0.0.0/0', '0.0.0.0/0'], ['10.0.0.0/255.0.0.0', '10.0.0.0/255.0.0.0'], ['loopback', 'loopback'], ['10.0.0.0/8/8', '10.0.0.0/8/8'],
    ] as const) {
      assert.throws(() => configFrom({ BERTH_TRUSTED_PROXIES: raw }), { message: message(entry, raw) }, raw);
    }
  });

  it('a bad one stops the start in one line naming the variable', { timeout: 90_000 }, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'berth-test-fwd-'));
    const role = startRole('start', { BERTH_DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: '0', BERTH_TRUSTED_PROXIES: '10.0.0.0/33' });
    // A start that takes the value runs until stopped: ended here, and failing.
    const timer = setTimeout(() => role.child.kill('SIGKILL'), 30_000);
    const code = await role.exited;
    clearTimeout(timer);
    rmSync(dataDir, { recursive: true, force: true });
    const lines = role.output.join('').trim().split('\n');
    assert.equal(code, 1, lines.join('\n'));
    assert.deepEqual(lines, [`berth start could not start: ${message('10.0.0.0/33', '10.0.0.0/33')}`]);
  });
});
