// deployment.logs?follow=true on a log that grows by many megabytes while it is followed: the
// follower reads each byte of the file once (the process's own read count, /proc/self/io, is the
// probe), and receives every line once, in order: long lines, characters cut by a read, and the
// last lines written just before the deployment ended included.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { FollowedLog } from '@berth/command-api/handlers/deployment-logs';
import { DeploymentLogs } from '@berth/shared/adapters/deployment-logs';
import type { Deployment } from '@berth/shared/domain/deployment/deployment';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Bytes this process has read through read syscalls so far (every thread: libuv's pool too). */
const bytesRead = () => Number(/^rchar: (\d+)$/m.exec(readFileSync('/proc/self/io', 'utf8'))![1]);

/** Follows `deploymentId`'s log; `status()` says the deployment's status at each poll. Answers the text sent. */
function follow(logs: DeploymentLogs, deploymentId: string, status: () => Deployment['status']): Promise<string> {
  let sent: PassThrough | undefined;
  const reply = {
    raw: { once: () => reply }, type: () => reply, header: () => reply,
    send: (stream: PassThrough) => { sent = stream; return reply; },
  };
  new FollowedLog(logs, deploymentId, async () => ({ status: status(), reason: null }) as unknown as Deployment)
    .send({} as FastifyRequest, reply as unknown as FastifyReply, { signal: new AbortController().signal, stillAllowed: async () => true });
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    sent!.on('data', (chunk: Buffer) => chunks.push(chunk)).on('end', () => resolve(Buffer.concat(chunks).toString('utf8'))).on('error', reject);
  });
}

/** The lines of an event stream's `line` events, and its `end` event's data. */
function parsed(stream: string) {
  const lines: string[] = [];
  let end: string | null = null;
  for (const event of stream.split('\n\n')) {
    if (event.startsWith('event: line\ndata: ')) lines.push(event.slice('event: line\ndata: '.length));
    else if (event.startsWith('event: end\ndata: ')) end = event.slice('event: end\ndata: '.length);
  }
  return { lines, end };
}

describe('a followed log growing by megabytes', () => {
  it('reads each byte of a 24 MB log once, however often it polls', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'berth-test-logs-'));
    const logs = new DeploymentLogs(dir);
    let status: Deployment['status'] = 'running';
    try {
      const writer = logs.writer('d1', []);
      writer.line('started');
      const before = bytesRead();
      const received = follow(logs, 'd1', () => status);
      const line = 'y'.repeat(999);
      // 24 MB over about 2.4 s: the follower polls it some twenty times as it grows.
      for (let round = 0; round < 24; round++) {
        for (let index = 0; index < 1000; index++) writer.line(line);
        await sleep(100);
      }
      status = 'done';
      const { lines, end } = parsed(await received);
      const read = bytesRead() - before;
      const size = statSync(logs.path('d1')).size;
      assert.equal(lines.length, 24_001);
      assert.ok(end?.includes('"status":"done"'));
      // Each byte once, with room for the rest of what the process reads meanwhile.
      assert.ok(read < size * 1.5, `read ${(read / 1e6).toFixed(1)} MB of the file system to follow a ${(size / 1e6).toFixed(1)} MB log`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('sends every line once and in order: long lines, characters cut by a read, and the last lines before the end', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'berth-test-logs-'));
    const logs = new DeploymentLogs(dir);
    let status: Deployment['status'] = 'running';
    try {
      const writer = logs.writer('d2', []);
      const written: string[] = [];
      const write = (text: string) => { writer.line(text); written.push(text); };
      const received = follow(logs, 'd2', () => status);
      for (let round = 0; round < 30; round++) {
        // Three-byte characters at odd offsets (a read ends inside one sooner or later), and lines
        // longer than a 64 KB slice and than a 1 MB read.
        for (let index = 0; index < 300; index++) write(`${round}/${index} ${'é€'.repeat(200 + index)}`);
        write(`${round} long ${'z'.repeat(round % 3 === 0 ? 1_500_000 : 100_000)}`);
        await sleep(round % 5 === 0 ? 0 : 30);
      }
      // The last lines, written just before the deployment is seen ended.
      for (let index = 0; index < 50; index++) write(`last ${index}`);
      status = 'error';
      const { lines, end } = parsed(await received);
      assert.equal(lines.length, written.length, 'as many lines as were written');
      const firstWrong = lines.findIndex((line, index) => line !== written[index]);
      assert.equal(firstWrong, -1, `line ${firstWrong} differs`);
      assert.ok(end?.includes('"status":"error"'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
