// `deployment.logs?follow=true`: the log so far, then each new line as the reactors write it, as
// server-sent events (`line` events), ending with an `end` event once the deployment has ended.
import { PassThrough } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DeploymentLogs } from '@berth/shared/adapters/deployment-logs';
import { FINISHED, type Deployment } from '@berth/shared/domain/deployment/deployment';
import { roomIn } from '../room-in.ts';
import { StreamedAnswer } from '../streamed.ts';
import type { StreamLifetime } from '../stream-lifetime.ts';

const POLL_MS = 100;
const HEARTBEAT_MS = 15_000;

// A carriage return ends a line of an event stream as a newline does: a log line holding one
// (a build's progress output) is sent as several, or it could forge an `end` event.
const lineEvents = (text: string) =>
  text.split(/\r\n|\r|\n/).filter((line, i, lines) => line !== '' || i < lines.length - 1).map((line) => `event: line\ndata: ${line}\n\n`).join('');

/** About how much of the log is sent at once. */
const SLICE_CHARS = 64 * 1024;
/** How much of the log one read takes at most: what a follower holds of it, beside the connection's buffers. */
const READ_BYTES = 1024 * 1024;

/** Where the next slice of `text` to send ends: after its last whole line within SLICE_CHARS (or its first line, if longer); 0 when no line is whole. */
function sliceEnd(text: string): number {
  const within = text.lastIndexOf('\n', SLICE_CHARS - 1) + 1;
  return within > 0 ? within : text.indexOf('\n') + 1;
}

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
    const stop = new AbortController();
    // A follower that is not reading needs no keep-alive, and is sent no more until it takes what waits.
    const heartbeat = setInterval(() => { if (!out.writableNeedDrain) out.write(': keep-alive\n\n'); }, HEARTBEAT_MS);
    const end = () => { clearInterval(heartbeat); stop.abort(); };
    reply.raw.once('close', end);
    lifetime.signal.addEventListener('abort', end, { once: true });
    void (async () => {
      // Bytes sent so far: each poll reads only what the log gained since, a bounded read at a time.
      let offset = 0;
      const decoder = new StringDecoder('utf8');
      let pending = '';
      try {
        while (!stop.signal.aborted && await lifetime.stillAllowed()) {
          // Read the status first: a line written before the end is then never missed.
          const deployment = await this.current();
          const ended = !deployment || FINISHED.has(deployment.status);
          let read: Buffer;
          do {
            read = await this.logs.readBytes(this.deploymentId, offset, READ_BYTES);
            offset += read.length;
            pending += decoder.write(read);
            // A slice at a time, each once the follower has taken the last: a long log so far (or a
            // burst of output) is not queued whole for a follower that does not read.
            for (let cut = sliceEnd(pending); cut > 0 && !stop.signal.aborted; cut = sliceEnd(pending)) {
              out.write(lineEvents(pending.slice(0, cut)));
              pending = pending.slice(cut);
              await roomIn(out, stop.signal);
            }
            // Once it ended, all it wrote is sent before the end; before, the status is looked at again between reads.
          } while (ended && read.length === READ_BYTES && !stop.signal.aborted);
          if (stop.signal.aborted) break;
          if (ended) {
            pending += decoder.end();
            if (pending) out.write(lineEvents(`${pending}\n`));
            out.write(`event: end\ndata: ${JSON.stringify({ status: deployment?.status ?? 'removed', reason: deployment?.reason ?? null })}\n\n`);
            break;
          }
          // A full read: more waits already.
          if (read.length < READ_BYTES) await new Promise((resolve) => setTimeout(resolve, POLL_MS));
        }
      } finally {
        end();
        out.end();
      }
    })();
    return reply.type('text/event-stream; charset=utf-8').header('cache-control', 'no-cache').send(out);
  }
}
