// Failures around a call are one line and exit 1, never a stack trace: a wrong password at login
// (the server's own words, against a real Berth), a config file that is no settings (truncated
// JSON, null, a string, a folder), an address without a scheme from BERTH_URL or the saved file,
// and a Berth that answers 2xx with something that is not JSON.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { listeningBerth, type ListeningBerth } from '../support/http.ts';
import { runBerth, type Run } from './berth-process.ts';

const ADMIN = { email: 'one-line@berth.test', password: 'a long enough password' };
const home = mkdtempSync(join(tmpdir(), 'berth-one-line-'));
after(() => rmSync(home, { recursive: true, force: true }));

function assertOneLine(run: Run, code: number, says: RegExp): void {
  assert.equal(run.code, code, run.stderr);
  assert.doesNotMatch(run.stderr, /^\s+at /m, 'no stack trace');
  assert.equal(run.stderr.trim().split('\n').length, 1, `one line on stderr, got:\n${run.stderr}`);
  assert.match(run.stderr.trim(), says);
}

describe('against a real Berth', () => {
  let server: ListeningBerth;
  before(async () => {
    server = await listeningBerth();
    server.client.token = server.setupToken();
    await server.client.ok('auth.createAdmin', ADMIN);
  });
  after(() => server.stop());

  test('a wrong password at login shows the server\'s message, not "not signed in"', async () => {
    const config = join(home, 'login.json');
    const run = await runBerth({ BERTH_CONFIG: config, BERTH_URL: '', BERTH_TOKEN: '' }, 'login', '--url', server.baseUrl, '--email', ADMIN.email, '--password', 'not the password');
    assertOneLine(run, 1, /Invalid email or password/);
    assert.doesNotMatch(run.stderr, /not signed in/);
  });

  test('login overwrites a config file that is no settings', async () => {
    for (const [name, text] of [['truncated', '{"url":'], ['null', 'null'], ['string', '"http://x"']] as const) {
      const config = join(home, `overwritten-${name}.json`);
      writeFileSync(config, text);
      const run = await runBerth({ BERTH_CONFIG: config, BERTH_URL: '', BERTH_TOKEN: '' }, 'login', '--url', server.baseUrl, '--email', ADMIN.email, '--password', ADMIN.password);
      assert.equal(run.code, 0, `${name}: ${run.stderr}`);
      assert.equal(JSON.parse(readFileSync(config, 'utf8')).url, server.baseUrl);
    }
    const folder = join(home, 'login-folder.json');
    mkdirSync(folder);
    const run = await runBerth({ BERTH_CONFIG: folder, BERTH_URL: '', BERTH_TOKEN: '' }, 'login', '--url', server.baseUrl, '--email', ADMIN.email, '--password', ADMIN.password);
    assertOneLine(run, 1, /^cannot write the settings to .*login-folder\.json/);
  });
});

describe('a config file that is no settings', () => {
  const broken = { truncated: '{"url":', null: 'null', string: '"http://x"', list: '[]' } as const;
  const folder = join(home, 'a-folder.json');
  before(() => mkdirSync(folder));

  test('a command says which file and what is wrong, in one line, exit 1', async () => {
    for (const [name, text] of Object.entries(broken)) {
      const config = join(home, `${name}.json`);
      writeFileSync(config, text);
      const run = await runBerth({ BERTH_CONFIG: config, BERTH_URL: '', BERTH_TOKEN: '' }, 'project', 'all');
      assertOneLine(run, 1, new RegExp(config.replace(/[.]/g, '\\.')));
    }
    assertOneLine(await runBerth({ BERTH_CONFIG: folder, BERTH_URL: '', BERTH_TOKEN: '' }, 'project', 'all'), 1, /a-folder\.json/);
  });

  test('the role commands do not read it', async () => {
    const config = join(home, 'roles.json');
    writeFileSync(config, '{"url":');
    const run = await runBerth({ BERTH_CONFIG: config, BERTH_URL: 'no-scheme', BERTH_TOKEN: '', PORT: 'not a port' }, 'relay');
    assertOneLine(run, 1, /^berth relay could not start: PORT must be a whole number/);
  });
});

describe('an address without a scheme', () => {
  test('from BERTH_URL or the saved file: one line, exit 1, nothing tried', async () => {
    const config = join(home, 'schemeless.json');
    writeFileSync(config, JSON.stringify({ url: 'http://127.0.0.1:1', token: 't' }));
    assertOneLine(await runBerth({ BERTH_CONFIG: config, BERTH_URL: '127.0.0.1:42751', BERTH_TOKEN: '' }, 'project', 'all'), 1, /BERTH_URL needs http:\/\/ or https:\/\/ \(got 127\.0\.0\.1:42751\)/);
    writeFileSync(config, JSON.stringify({ url: 'localhost:42751', token: 't' }));
    assertOneLine(await runBerth({ BERTH_CONFIG: config, BERTH_URL: '', BERTH_TOKEN: '' }, 'project', 'all'), 1, /needs http:\/\/ or https:\/\/ \(got localhost:42751\)/);
  });
});

describe('a 2xx answer that is not JSON', () => {
  const html = createServer((request, response) => {
    request.resume();
    response.writeHead(200, { 'content-type': 'text/html' }).end('<html>hi</html>');
  });
  before(() => new Promise<void>((resolve) => html.listen(0, '127.0.0.1', resolve)));
  after(() => html.close());

  test('says Berth answered something that is not JSON, naming the content type', async () => {
    const url = `http://127.0.0.1:${(html.address() as AddressInfo).port}`;
    const run = await runBerth({ BERTH_CONFIG: join(home, 'html.json'), BERTH_URL: url, BERTH_TOKEN: 't' }, 'project', 'all');
    assertOneLine(run, 1, new RegExp(`^Berth at ${url} answered something that is not JSON \\(content-type text/html\\)$`));
  });
});
