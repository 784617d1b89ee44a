// On a terminal, berth asks for what it was not given: login for the password, without showing it,
// and then a two-factor code; any operation for a required password (`auth create-admin`). With no
// terminal to ask on, it says what it needs instead. The terminal is a real pseudo-terminal
// (`script`), the way a shell gives one.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { runBerth } from './berth-process.ts';

const BIN = fileURLToPath(new URL('../../shared/cli/bin.mjs', import.meta.url));
const PASSWORD = 'typed, never shown';
const PIN = '123456';

const body = async (request: IncomingMessage) => {
  let text = '';
  for await (const chunk of request) text += chunk;
  return JSON.parse(text) as Record<string, string>;
};
// A Berth whose account has two-factor on: the password, then the pin.
let requests = 0;
const server = createServer(async (request, response) => {
  requests++;
  const input = await body(request);
  const answer = request.url === '/api/auth.login' && input.password === PASSWORD ? { is2FAEnabled: true, id: 'me' }
    : request.url === '/api/auth.verifyLogin2FA' && input.pin === PIN ? { token: 'the token' }
    : request.url === '/api/auth.createAdmin' && input.password === PASSWORD ? { id: 'me', email: input.email } : null;
  response.writeHead(answer ? 200 : 401, { 'content-type': 'application/json' })
    .end(JSON.stringify(answer ?? { code: 'UNAUTHORIZED', message: 'Invalid email or password' }));
});
const home = mkdtempSync(join(tmpdir(), 'berth-prompt-'));
const config = join(home, 'config.json');
const url = () => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

before(() => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve)));
after(() => {
  server.close();
  rmSync(home, { recursive: true, force: true });
});

/** Runs `berth login` (or the command `args`) on a pseudo-terminal, typing each answer once its question shows; what the terminal showed. */
function onTerminal(answers: ReadonlyArray<readonly [question: string, typed: string]>, settings = config, args = ['login', '--url', url()]): Promise<{ code: number | null; shown: string }> {
  const command = [process.execPath, BIN, ...args, '--email', 'me@example.com'].map((word) => `'${word}'`).join(' ');
  const env = { ...process.env, BERTH_CONFIG: settings, BERTH_PASSWORD: '', BERTH_URL: url(), BERTH_TOKEN: 'setup token' };
  const child = spawn('script', ['-qec', command, '/dev/null'], { env });
  let shown = '';
  let next = 0;
  let answered = 0;
  child.stdout.on('data', (chunk) => {
    shown += chunk;
    const answer = answers[next];
    if (answer && shown.includes(answer[0])) {
      next++;
      answered = shown.length;
      child.stdin.write(answer[1] === '\u0003' ? answer[1] : `${answer[1]}\r`);
    }
    // A question no answer was planned for would wait for ever: end it there (the test sees it).
    if (next === answers.length && /password: $/.test(shown.slice(answered))) child.kill();
  });
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, shown })));
}

test('berth login on a terminal asks for the password without showing it, then for the two-factor code, and signs in', async () => {
  const { code, shown } = await onTerminal([['password: ', PASSWORD], ['two-factor code: ', PIN]]);
  assert.equal(code, 0, shown);
  assert.match(shown, /signed in to http:\/\/127\.0\.0\.1:\d+ as me@example\.com/);
  assert.ok(!shown.includes(PASSWORD), `the terminal showed the password:\n${shown}`);
  assert.ok(shown.includes(PIN), 'the two-factor code typed was not shown');
  assert.equal(JSON.parse(readFileSync(config, 'utf8')).token, 'the token');
});

test('an operation run on a terminal without its required password asks for it, without showing it', async () => {
  const { code, shown } = await onTerminal([['password: ', PASSWORD]], config, ['auth', 'create-admin']);
  assert.equal(code, 0, shown);
  assert.match(shown, /email\s+me@example\.com/);
  assert.ok(!shown.includes(PASSWORD), `the terminal showed the password:\n${shown}`);
});

test('an operation whose password may be null (left as it is) does not ask for it', async () => {
  const { code, shown } = await onTerminal([], config, ['auth', 'update']);
  assert.doesNotMatch(shown, /password: /);
  assert.equal(code, 1, shown);
});

test('Ctrl-C at the password question ends berth login (exit 130), and nothing is signed in', async () => {
  const before = requests;
  const { code, shown } = await onTerminal([['password: ', '\u0003']], join(home, 'interrupted.json'));
  assert.equal(code, 130, shown);
  assert.equal(requests, before);
  assert.equal(existsSync(join(home, 'interrupted.json')), false);
});

test('berth login with no terminal to ask on says what it needs, and calls nothing', async () => {
  const run = await runBerth({ BERTH_CONFIG: join(home, 'other.json'), BERTH_PASSWORD: '' }, 'login', '--url', url(), '--email', 'me@example.com');
  assert.equal(run.code, 2);
  assert.match(run.stderr, /--password p \| BERTH_PASSWORD=p/);
});
