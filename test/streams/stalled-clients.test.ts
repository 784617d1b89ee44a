// Streamed answers (events.export, events.follow) to clients that read slowly or not at all, on a
// real Berth process: each stalled stream holds a bounded buffer (it is written only as the socket
// drains), other requests stay fast, and a client that takes nothing for STALL_MS is cut.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { STALL_MS } from '@berth/command-api/stalled-stream';
import { httpClient, type HttpClient } from '../support/http.ts';

const BIN = fileURLToPath(new URL('../../shared/cli/bin.mjs', import.meta.url));
const LIVE_MEMORY = fileURLToPath(new URL('./live-memory.cjs', import.meta.url));
const PORT = 47411;
const ADMIN = { email: 'slow-reader@berth.test', password: 'a long enough password' };
/** About 20 MB of history: more than the kernel's socket buffers hold for a client that reads nothing. */
const PROJECTS = 400;
const STALLED = 6;
/** What one stalled stream may keep live in Berth: about a page of the log (1 MB) and the socket's buffers. */
const STALLED_STREAM_MB = 4;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The memory still live in `berth` after a full collection, in MB. */
async function liveMb(berth: ChildProcess, file: string): Promise<number> {
  const asked = Date.now();
  berth.kill('SIGUSR2');
  for (;;) {
    await sleep(50);
    const seen = JSON.parse(readFileSync(file, { encoding: 'utf8', flag: 'a+' }) || '{"at":0}') as { liveBytes: number; at: number };
    if (seen.at >= asked) return seen.liveBytes / 2 ** 20;
  }
}

/** A raw HTTP client that asks for `path` and reads nothing of the answer (its socket paused). */
function stalledClient(path: string, token: string, accept = '*/*'): Socket {
  const socket = connect(PORT, '127.0.0.1');
  socket.on('error', () => {});
  socket.write(`GET ${path} HTTP/1.1\r\nhost: berth\r\naccept: ${accept}\r\nauthorization: Bearer ${token}\r\n\r\n`);
  socket.pause();
  return socket;
}

/**
 * Whether Berth has cut the stream `socket` stalled on: a client that takes nothing never sees the
 * end, so it reads again, and a cut stream ends once the kernel's buffers are read (an export it
 * did not cut would end with its last chunk on a connection kept alive, a follow not at all).
 */
async function cutByBerth(socket: Socket): Promise<boolean> {
  let tail = '';
  socket.on('data', (chunk: Buffer) => { tail = (tail + chunk.toString('latin1')).slice(-16); });
  const ended = new Promise<boolean>((resolve) => socket.once('close', () => resolve(true)));
  socket.resume();
  return await Promise.race([ended, sleep(8000).then(() => false)]) && !tail.endsWith('\r\n0\r\n\r\n');
}

describe('streamed answers to stalled clients', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'berth-test-slowread-'));
  const memoryFile = join(dataDir, 'live-memory.json');
  let berth: ChildProcess;
  let api: HttpClient;
  before(async () => {
    berth = spawn(process.execPath, ['--expose-gc', '--require', LIVE_MEMORY, BIN, 'start'], {
      stdio: 'ignore',
      env: { ...process.env, BERTH_DATA_DIR: dataDir, PORT: String(PORT), HOST: '127.0.0.1', BERTH_ROLES: 'api,projections', BERTH_LOG_LEVEL: 'silent', BERTH_TEST_MEMORY_FILE: memoryFile },
    });
    const baseUrl = `http://127.0.0.1:${PORT}`;
    for (const deadline = Date.now() + 60_000; !(await fetch(`${baseUrl}/health`).then((r) => r.ok, () => false));) {
      if (Date.now() > deadline || berth.exitCode !== null) throw new Error('Berth did not start');
      await sleep(100);
    }
    api = httpClient(baseUrl);
    api.token = readFileSync(join(dataDir, 'setup-token'), 'utf8').trim();
    await api.ok('auth.createAdmin', ADMIN);
    api.token = (await api.call('auth.login', ADMIN, { token: null })).body.token;
    const description = 'x'.repeat(50_000);
    let next = 0;
    await Promise.all(Array.from({ length: 8 }, async () => {
      while (next < PROJECTS) await api.ok('project.create', { name: `slow read ${next++}`, description });
    }));
  });
  after(async () => {
    berth.kill('SIGTERM');
    await new Promise((resolve) => berth.once('exit', resolve));
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps a bounded amount live for each of six stalled exports, and answers other requests fast meanwhile', async (t) => {
    const before = await liveMb(berth, memoryFile);
    const clients = Array.from({ length: STALLED }, () => stalledClient('/api/events.export', api.token!));
    try {
      let slowest = 0;
      for (let second = 0; second < 4; second++) {
        await sleep(1000);
        const asked = Date.now();
        await api.ok('events.all', { limit: 1 });
        slowest = Math.max(slowest, Date.now() - asked);
      }
      const added = (await liveMb(berth, memoryFile)) - before;
      t.diagnostic(`${STALLED} stalled exports keep ${added.toFixed(1)} MB live; the slowest other request took ${slowest} ms`);
      assert.ok(added < STALLED * STALLED_STREAM_MB, `${STALLED} stalled exports keep ${added.toFixed(1)} MB live`);
      assert.ok(slowest < 1000, `events.all took ${slowest} ms beside the stalled exports`);
    } finally {
      for (const client of clients) client.destroy();
    }
  });

  // The two stalls wait out the bound side by side: 23 s of the suite, not 46.
  describe('the stall bound', { concurrency: true }, () => {
    it('ends an export whose client has taken nothing for the stall bound', async () => {
      const client = stalledClient('/api/events.export', api.token!);
      try {
        await sleep(STALL_MS + 3000);
        assert.ok(await cutByBerth(client), `a stalled export still open after ${(STALL_MS + 3000) / 1000} s`);
      } finally {
        client.destroy();
      }
    });

    it('ends a follow whose client stalls while events keep coming', async () => {
      const client = stalledClient('/api/events.follow', api.token!, 'text/event-stream');
      const appending = (async () => {
        for (const until = Date.now() + STALL_MS + 3000; Date.now() < until;) {
          await api.ok('project.create', { name: `while stalled ${Date.now()}` });
          await sleep(200);
        }
      })();
      try {
        await appending;
        assert.ok(await cutByBerth(client), `a stalled follower still followed after ${(STALL_MS + 3000) / 1000} s`);
      } finally {
        client.destroy();
      }
    });
  });
});
