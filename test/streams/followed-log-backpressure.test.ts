// deployment.logs?follow=true to a follower that reads nothing while the build keeps writing: the
// server holds a bounded buffer for it (the log is read on only as the follower takes it).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import type { PassThrough } from 'node:stream';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { FollowedLog } from '@berth/command-api/handlers/deployment-logs';
import { DeploymentLogs } from '@berth/shared/adapters/deployment-logs';
import type { Deployment } from '@berth/shared/domain/deployment/deployment';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts a follow of `deploymentId`'s log, for ever running; answers the stream the reply was given. */
function follow(logs: DeploymentLogs, deploymentId: string, stop: AbortSignal): PassThrough {
  let sent: PassThrough | undefined;
  const reply = {
    raw: { once: () => reply }, type: () => reply, header: () => reply,
    send: (stream: PassThrough) => { sent = stream; return reply; },
  };
  const running = { status: 'running' } as unknown as Deployment;
  new FollowedLog(logs, deploymentId, async () => running)
    .send({} as FastifyRequest, reply as unknown as FastifyReply, { signal: stop, stillAllowed: async () => true });
  return sent!;
}

describe('deployment.logs follow backpressure', () => {
  it('buffers a bounded amount for a follower that reads nothing while the log keeps growing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'berth-test-slowread-logs-'));
    const logs = new DeploymentLogs(dir);
    const stop = new AbortController();
    try {
      const writer = logs.writer('d1', []);
      const out = follow(logs, 'd1', stop.signal);
      const line = 'x'.repeat(1000);
      for (let round = 0; round < 20; round++) {
        for (let index = 0; index < 500; index++) writer.line(line);
        await sleep(100);
      }
      await sleep(300);
      const buffered = out.writableLength + out.readableLength;
      assert.ok(buffered < 256 * 1024, `${buffered} bytes buffered for a follower that reads nothing of a 10 MB log`);
    } finally {
      stop.abort();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
