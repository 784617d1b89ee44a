// `deployment.logs?follow=true`: the log so far, then each new line as the reactors write it, as
// server-sent events (`line` events), ending with an `end` event once the deployment has ended.
import { PassThrough } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DeploymentLogs } from '@berth/shared/adapters/deployment-logs';
import { FINISHED, type Deployment } from '@berth/shared/domain/deployment/deployment';
import { StreamedAnswer } from '../streamed.ts';
import type { StreamLifetime } from '../stream-lifetime.ts';

const POLL_MS = 100;
const HEARTBEAT_MS = 15_000;

// A carriage return ends a line of an event stream as a newline does: a log line holding one
// (a build's progress output) is sent as several, or it could forge an `end` event.
const lineEvents = (text: string) =>
  text.split(/\r\n|\r|\n/).filter((line, i, lines) => line !== '' || i < lines.length - 1).map((line) => `event: line\ndata: ${line}\n\n`).join('');

export class FollowedLog extends StreamedAnswer {
  constructor(
    private readonly logs: DeploymentLogs,
    private readonly deploymentId: string,
    /** The deployment as it is now (from the log, not a read model that may lag). */
    private readonly current: () => Promise<Deployment | null>,
  ) {
    super();
  }

  send(_request: FastifyRequest, reply: FastifyReply, lifetime: StreamLifetime) {
    const out = new PassThrough();
    out.write(': following\n\n');
    let closed = false;
    const heartbeat = setInterval(() => out.write(': keep-alive\n\n'), HEARTBEAT_MS);
    const end = () => { closed = true; clearInterval(heartbeat); };
    reply.raw.once('close', end);
    lifetime.signal.addEventListener('abort', end, { once: true });
    void (async () => {
      let offset = 0;
      let pending = '';
      try {
        while (!closed && await lifetime.stillAllowed()) {
          // Read the status first: a line written before the end is then never missed.
          const deployment = await this.current();
          const text = await this.logs.read(this.deploymentId, offset);
          offset += Buffer.byteLength(text);
          pending += text;
          const cut = pending.lastIndexOf('\n') + 1;
          if (cut > 0) out.write(lineEvents(pending.slice(0, cut)));
          pending = pending.slice(cut);
          if (!deployment || FINISHED.has(deployment.status)) {
            if (pending) out.write(lineEvents(`${pending}\n`));
            out.write(`event: end\ndata: ${JSON.stringify({ status: deployment?.status ?? 'removed', reason: deployment?.reason ?? null })}\n\n`);
            break;
          }
          await new Promise((resolve) => setTimeout(resolve, POLL_MS));
        }
      } finally {
        end();
        out.end();
      }
    })();
    return reply.type('text/event-stream; charset=utf-8').header('cache-control', 'no-cache').send(out);
  }
}
