// What `berth` says when a command goes wrong before or around a call, against a stand-in Berth:
// the address a failed connection tried, a --url without a scheme, help for a group and for one
// operation (exit 0), a switch given a word it cannot take, a flag given twice, a signed-out CLI, and
// a first admin asked for without the setup token.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { runBerth } from './berth-process.ts';
import { standIn } from './stand-in.ts';

const MISSING_TOKEN = { status: 401, body: { code: 'UNAUTHORIZED', message: 'Missing Bearer token' } };
const berth = standIn({
  'auth.logout': { status: 200, body: true },
  'auth.createAdmin': { status: 401, body: { code: 'UNAUTHORIZED', message: 'auth.createAdmin needs the setup token as its Bearer token' } },
  'project.all': MISSING_TOKEN,
  'project.create': { status: 200, body: { projectId: 'p1', name: 'x' } },
});
const home = mkdtempSync(join(tmpdir(), 'berth-errors-'));
const config = join(home, 'config.json');
/** The CLI with a saved Berth (the stand-in) and token, or none. */
const run = (token: string | null, ...args: string[]) => {
  writeFileSync(config, JSON.stringify({ url: berth.url(), token }));
  return runBerth({ BERTH_CONFIG: config, BERTH_URL: '', BERTH_TOKEN: '' }, ...args);
};

/** A port nothing listens on: one just let go. */
const closedPort = () => new Promise<number>((resolve) => {
  const server = createServer().listen(0, '127.0.0.1', () => {
    const { port } = server.address() as AddressInfo;
    server.close(() => resolve(port));
  });
});

before(() => berth.start());
after(async () => {
  await berth.stop();
  rmSync(home, { recursive: true, force: true });
});

test('a connection that fails names the address tried, not the saved one', async () => {
  const url = `http://127.0.0.1:${await closedPort()}`;
  const login = await run(null, 'login', '--url', url, '--email', 'me@example.com', '--password', 'p');
  assert.equal(login.code, 1);
  assert.match(login.stderr, new RegExp(`^cannot reach Berth at ${url}: connect ECONNREFUSED`, 'm'));
  assert.doesNotMatch(login.stderr, new RegExp(berth.url()));
});

test('a --url without a scheme is refused, saying so', async () => {
  const login = await run(null, 'login', '--url', 'localhost:41600', '--email', 'me@example.com', '--password', 'p');
  assert.equal(login.code, 2);
  assert.equal(login.stderr.trim(), '--url needs http:// or https:// (got localhost:41600)');
});

test('berth <group> --help lists the group\'s operations and exits 0', async () => {
  const help = await run('token', 'application', '--help');
  assert.equal(help.code, 0, help.stderr);
  assert.match(help.stdout, /^ {2}berth application create --name --app-name --description --project-id$/m);
  assert.match(help.stdout, /^ {2}berth application deploy --application-id$/m);
});

test('berth <group> <operation> --help lists that operation\'s flags, their types, and which are required', async () => {
  const help = await run('token', 'application', 'create', '--help');
  assert.equal(help.code, 0, help.stderr);
  assert.match(help.stdout, /^berth application create {2}\(POST \/api\/application\.create\)$/m);
  assert.match(help.stdout, /^ {2}--name\s+required\s+string \(at least 1 character\)$/m);
  assert.match(help.stdout, /^ {2}--project-id\s+required\s+string$/m);
  assert.match(help.stdout, /^ {2}--app-name\s+optional\s+string$/m);
  assert.match(help.stdout, /^ {2}--description\s+optional\s+string, or null$/m);
  assert.doesNotMatch(help.stdout, /application deploy/);
  const port = await run('token', 'port', 'create', '--help');
  assert.match(port.stdout, /^ {2}--published-port\s+required\s+integer 1-65535$/m);
  assert.match(port.stdout, /^ {2}--protocol\s+optional\s+one of tcp, udp; default tcp$/m);
});

test('a switch given a word other than true or false is refused, naming the word', async () => {
  const update = await run('token', 'application', 'update', '--application-id', 'a1', '--enabled', 'maybe');
  assert.equal(update.code, 2);
  assert.match(update.stderr, /^--enabled must be true or false \(got maybe\)/);
});

test('a flag given twice is refused, in either spelling, and nothing is called', async () => {
  const before = berth.seen.length;
  const twice = await run('token', 'project', 'create', '--name', 'a', '--name', 'b');
  assert.equal(twice.code, 2);
  assert.equal(twice.stderr.trim(), '--name given twice');
  const spelled = await run('token', 'project', 'create', '--name', 'a', '--description', 'x', '--description=y');
  assert.equal(spelled.stderr.trim(), '--description given twice');
  const camel = await run('token', 'application', 'one', '--application-id', 'a', '--applicationId', 'b');
  assert.equal(camel.code, 2);
  assert.equal(camel.stderr.trim(), '--application-id given twice');
  assert.equal(berth.seen.length, before);
});

test('after berth logout, a command says to sign in rather than show the 401', async () => {
  const logout = await run('token', 'logout');
  assert.equal(logout.code, 0, logout.stderr);
  // As logout left the settings: no token.
  const all = await runBerth({ BERTH_CONFIG: config, BERTH_URL: '', BERTH_TOKEN: '' }, 'project', 'all');
  assert.equal(all.code, 1);
  assert.equal(all.stderr.trim(), 'not signed in: run berth login');
  assert.equal(berth.seen.at(-1)?.authorization, undefined);
});

test('creating the first admin without the setup token says how to give it, signed out or signed in elsewhere', async () => {
  for (const token of [null, 'a login token of another Berth']) {
    const created = await run(token, 'auth', 'create-admin', '--email', 'me@example.com', '--password', 'a long password');
    assert.equal(created.code, 1);
    assert.match(created.stderr.trim(), /^auth\.createAdmin takes the setup token a new Berth prints at its first start \(also in its data folder, file setup-token\): BERTH_TOKEN=<setup token> berth auth create-admin/);
    assert.equal(created.stderr.trim().split('\n').length, 1);
  }
});
