// A server address that is wrong stops a role's start with one line naming the variable it came
// from, whatever the driver's own words; and the API, like the other roles, does not start without
// the bus its configuration names.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { EventStoreDbTestServer } from '../support/eventstoredb-server.ts';
import { freePort } from '../support/http.ts';
import { startRole } from '../support/role-process.ts';

const dirs: string[] = [];
let eventStore: EventStoreDbTestServer;
before(async () => { eventStore = await new EventStoreDbTestServer().start(); });
after(async () => {
  await eventStore.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Runs `role` with `env` until it exits (killed, and so failing, after 60 s): its exit code and its lines. */
async function start(role: string, env: Record<string, string>): Promise<{ code: number | null; lines: string[] }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'berth-addresses-'));
  dirs.push(dataDir);
  const process = startRole(role, {
    BERTH_DATA_DIR: dataDir, BERTH_INSTANCE_KEY: randomBytes(32).toString('base64'), BERTH_CONNECT_TIMEOUT_SECONDS: '2',
    HOST: '127.0.0.1', PORT: '0', ...env,
  });
  const timer = setTimeout(() => process.child.kill('SIGKILL'), 60_000);
  const code = await process.exited;
  clearTimeout(timer);
  // Node's own warnings (TLS to an IP address) are not Berth's lines.
  const lines = process.output.join('').trim().split('\n').filter((line) => !/^\((node:\d+|Use `node)/.test(line));
  return { code, lines };
}

/** Exit 1 with exactly one line, the start-up failure, matching each of `expected`. */
async function refusedInOneLine(role: string, env: Record<string, string>, ...expected: RegExp[]) {
  const { code, lines } = await start(role, env);
  assert.equal(code, 1, lines.join('\n'));
  assert.equal(lines.length, 1, lines.join('\n'));
  assert.match(lines[0]!, new RegExp(`^berth ${role} could not start: `));
  for (const pattern of expected) assert.match(lines[0]!, pattern);
}

describe('start-up with a wrong server address', () => {
  it('the api role waits for an unreachable BERTH_NATS_URL a line per attempt, then exits 1 naming it', async () => {
    const { code, lines } = await start('api', { BERTH_NATS_URL: `nats://127.0.0.1:${await freePort()}` });
    assert.equal(code, 1, lines.join('\n'));
    assert.match(lines[0]!, /^waiting for the bus \(NATS\) \(attempt 1\)/);
    assert.match(lines[lines.length - 1]!, /^berth api could not start: the bus \(NATS\) could not be reached within 2 s \(BERTH_NATS_URL\)/);
  });

  it('a BERTH_NATS_URL that is no address is named', async () => {
    const { code, lines } = await start('api', { BERTH_NATS_URL: 'notaurl' });
    assert.equal(code, 1, lines.join('\n'));
    assert.match(lines[lines.length - 1]!, /^berth api could not start: .*BERTH_NATS_URL/);
  });

  it('a BERTH_MONGO_URL of another scheme is named, with the driver\'s reason', () =>
    refusedInOneLine('api', { BERTH_MONGO_URL: 'http://foo' }, /BERTH_MONGO_URL \(http:\/\/foo\)/, /Invalid scheme/));

  it('a BERTH_MONGO_URL without a database is refused before any connection', async () =>
    refusedInOneLine('api', { BERTH_MONGO_URL: `mongodb://127.0.0.1:${await freePort()}` }, /BERTH_MONGO_URL .* names no database/));

  it('a BERTH_EVENTSTORE_URL of another scheme is named', () =>
    refusedInOneLine('relay', { BERTH_EVENTSTORE_URL: 'foo://bar' }, /BERTH_EVENTSTORE_URL \(foo:\/\/bar\)/, /esdb:\/\//));

  it('a BERTH_EVENTSTORE_URL asking TLS of a server without it says so in one line, with the ?tls=false hint', () =>
    refusedInOneLine('api', { BERTH_EVENTSTORE_URL: eventStore.url.replace('?tls=false', '') },
      /BERTH_EVENTSTORE_URL/, /\?tls=false/, /TLS handshake failed/, /^(?!.*Resolution note)/));
});
