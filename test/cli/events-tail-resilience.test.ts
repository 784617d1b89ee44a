// `berth events tail` and `export` when the other end goes away: Berth killed -9 under a tail (it
// waits and resumes where it stopped, printing every event once), a reader that closes the pipe
// (`| head -1`: a quiet exit 0, as `cat`), a connection dropped mid-export (one line, exit 1).
import assert from 'node:assert/strict';
import { spawn, type ChildProcess, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, test } from 'node:test';
import { freePort, httpClient } from '../support/http.ts';
import { finished, spawnBerth } from './berth-process.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ADMIN = { email: 'tail@berth.test', password: 'a long enough password' };
const home = mkdtempSync(join(tmpdir(), 'berth-tail-'));
after(() => rmSync(home, { recursive: true, force: true }));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const exited = (child: ChildProcess) => new Promise<number | null>((resolve) => {
  if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode);
  else child.once('exit', (code) => resolve(code));
});

/** Waits until `ready` holds; bounded by time, as a loaded machine starts processes slowly. */
async function until(ready: () => boolean | Promise<boolean>, what: string, ms = 60_000): Promise<void> {
  for (const deadline = Date.now() + ms; !(await ready());) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

/** Berth as its own process (as an operator starts it), so that it can be killed -9. */
async function startBerth(dataDir: string, port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, [join(ROOT, 'shared/cli/bin.mjs'), 'start'], {
    cwd: ROOT, stdio: 'ignore',
    env: { ...process.env, BERTH_DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', BERTH_ROLES: 'api,projections', BERTH_LOG_LEVEL: 'silent' },
  });
  const up = async () => fetch(`http://127.0.0.1:${port}/health`).then((response) => response.ok, () => false);
  await until(async () => child.exitCode === null && await up(), 'Berth to start');
  return child;
}

/** A process's output as it comes, its stdout as lines. */
function watch(child: ChildProcessWithoutNullStreams) {
  const seen = { stdout: '', stderr: '', lines: () => seen.stdout.split('\n').filter(Boolean) };
  child.stdout.on('data', (chunk) => { seen.stdout += chunk; });
  child.stderr.on('data', (chunk) => { seen.stderr += chunk; });
  return seen;
}

describe('berth events tail across Berth killed -9 and started again', () => {
  test('keeps running, says once that it reconnects, and prints every event exactly once', () => tailAcrossKill(false));
  test('begun at a cursor, takes the history up again after the last event it printed, not at the cursor', () => tailAcrossKill(true));

  async function tailAcrossKill(fromCursor: boolean): Promise<void> {
    const dataDir = mkdtempSync(join(home, 'data-'));
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    let berth = await startBerth(dataDir, port);
    try {
      const client = httpClient(baseUrl);
      client.token = readFileSync(join(dataDir, 'setup-token'), 'utf8').trim();
      await client.ok('auth.createAdmin', ADMIN);
      client.token = (await client.ok('auth.login', ADMIN)).token as string;
      if (fromCursor) await client.ok('project.create', { name: 'before the cursor' });
      await client.ok('project.create', { name: 'before the kill' });
      const { nextCursor } = await client.ok('events.all', { aggregate: 'project', limit: 1 });

      const env = { BERTH_CONFIG: join(home, 'config.json'), BERTH_URL: baseUrl, BERTH_TOKEN: client.token };
      const cursor = fromCursor ? ['--cursor', nextCursor as string] : [];
      const following = spawnBerth(env, ['events', 'tail', '--aggregate', 'project', '--json', ...cursor]);
      const seen = watch(following);
      const names = () => seen.lines().map((line) => JSON.parse(line).data.name as string);
      await until(() => names().includes('before the kill'), 'the first event to be printed');

      berth.kill('SIGKILL');
      await exited(berth);
      // Long enough for the tail to meet the dead server and try again at least once.
      await sleep(1500);
      assert.equal(following.exitCode, null, `the tail is still running; it printed:\n${seen.stderr}`);

      berth = await startBerth(dataDir, port);
      await client.ok('project.create', { name: 'after the restart' });
      await until(() => names().includes('after the restart') || following.exitCode !== null, 'the event made after the restart');
      following.kill();
      await exited(following);

      const logged = (await client.ok('events.all', { aggregate: 'project' })).events.map((event: any) => event.position);
      assert.deepEqual(seen.lines().map((line) => JSON.parse(line).position), logged.slice(fromCursor ? 1 : 0), 'each event of the log printed once, in order');
      assert.deepEqual(names(), ['before the kill', 'after the restart']);
      assert.doesNotMatch(seen.stderr, /^\s+at /m, 'no stack trace');
      const said = seen.stderr.trim().split('\n');
      assert.equal(said.length, 1, `one line on stderr, got:\n${seen.stderr}`);
      assert.match(said[0]!, /reconnecting/);
    } finally {
      berth.kill('SIGKILL');
      await exited(berth);
    }
  }
});

describe('berth events against a stand-in Berth', () => {
  /** The answer held open by the stand-in, its first line sent; what it does next is the test's. */
  let held: ServerResponse | null = null;
  const server = createServer((request, response) => {
    request.resume();
    const follow = request.url?.startsWith('/api/events.follow');
    const event = (position: number) => JSON.stringify({ position, stream: 's', type: 'Seen', metadata: { occurredAt: 'now' } });
    response.writeHead(200, { 'content-type': follow ? 'text/event-stream' : 'application/x-ndjson' });
    response.write(follow ? `: following\n\nid: 1\nevent: Seen\ndata: ${event(1)}\n\n` : `${event(1)}\n`);
    held = response;
  });
  const url = () => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  test.before(() => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve)));
  test.after(() => { server.closeAllConnections(); server.close(); });

  /** Runs `berth events <verb>` until its first line is out, then lets `next` act on it and the stand-in. */
  async function afterFirstLine(verb: string, next: (child: ChildProcessWithoutNullStreams, held: ServerResponse) => void) {
    held = null;
    const child = spawnBerth({ BERTH_CONFIG: join(home, 'config.json'), BERTH_URL: url(), BERTH_TOKEN: 'token' }, ['events', verb]);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => { stdout += chunk; });
    child.stderr.on('data', (chunk) => { stderr += chunk; });
    await until(() => stdout.includes('\n') || child.exitCode !== null, 'the first line');
    next(child, held!);
    // Bounded: a command that never notices would otherwise hold the test.
    const gaveUp = new Promise<'still running'>((resolve) => setTimeout(() => resolve('still running'), 20_000).unref());
    const code = await Promise.race([exited(child), gaveUp]);
    child.kill();
    return { code, stdout, stderr };
  }

  /** As `| head -1` does: the reader goes after one line, and more comes. */
  const closeThePipe = (child: ChildProcessWithoutNullStreams, response: ServerResponse, more: string) => {
    child.stdout.destroy();
    setTimeout(() => response.write(more), 200);
  };

  test('`berth events export | head -1`: a closed stdout ends the export quietly with exit 0', async () => {
    const more = `${JSON.stringify({ position: 2 })}\n`.repeat(2000);
    const run = await afterFirstLine('export', (child, response) => closeThePipe(child, response, more));
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stderr, '');
  });

  test('`berth events tail | head -1`: a closed stdout ends the tail quietly with exit 0', async () => {
    const more = Array.from({ length: 50 }, (_, i) => `id: ${i + 2}\nevent: Seen\ndata: ${JSON.stringify({ position: i + 2, metadata: {} })}\n\n`).join('');
    const run = await afterFirstLine('tail', (child, response) => closeThePipe(child, response, more));
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stderr, '');
  });

  test('an export into a reader that does not read takes from Berth only as fast as it reads', async () => {
    held = null;
    const child = spawnBerth({ BERTH_CONFIG: join(home, 'config.json'), BERTH_URL: url(), BERTH_TOKEN: 'token' }, ['events', 'export']);
    try {
      await until(() => held !== null, 'the export to begin');
      const line = `${JSON.stringify({ position: 2, data: 'x'.repeat(1000) })}\n`.repeat(64);
      // Berth's side writes until the command stops taking: a second without drain. Left unread, the
      // command's stdout holds a pipe's worth, its socket a few more; not the whole export.
      let written = 0;
      const cap = 64 * 1024 * 1024;
      while (written < cap) {
        written += line.length;
        if (!held!.write(line)) {
          const drained = await Promise.race([new Promise((resolve) => held!.once('drain', () => resolve(true))), sleep(1000).then(() => false)]);
          if (!drained) break;
        }
      }
      assert.ok(written < 16 * 1024 * 1024, `the command took ${(written / 1024 / 1024).toFixed(1)} MB while nothing read its output`);
    } finally {
      child.kill();
      await exited(child);
    }
  });

  test('a tail that never reached Berth does not wait for it: one line and exit 1', async () => {
    const nobody = `http://127.0.0.1:${await freePort()}`;
    const run = await finished(spawnBerth({ BERTH_CONFIG: join(home, 'config.json'), BERTH_URL: nobody, BERTH_TOKEN: 'token' }, ['events', 'tail']));
    assert.equal(run.code, 1, run.stderr);
    assert.equal(run.stderr, `cannot reach Berth at ${nobody}: connect ECONNREFUSED ${nobody.slice('http://'.length)}\n`);
  });

  test('a connection dropped in the middle of an export is one line and exit 1', async () => {
    const run = await afterFirstLine('export', (_child, response) => response.socket?.destroy());
    assert.equal(run.code, 1, run.stderr);
    assert.doesNotMatch(run.stderr, /^\s+at /m, 'no stack trace');
    assert.equal(run.stderr.trim().split('\n').length, 1, `one line on stderr, got:\n${run.stderr}`);
    assert.ok(run.stderr.includes(url()), `it names the server: ${run.stderr}`);
  });
});
