// A streamed answer whose client stops taking it: the stream already waits (backpressure), but a
// client that never reads again would hold its connection, its read of the log and its
// subscription for ever, as neither Node nor Fastify times out a response that is being written.
import type { ServerResponse } from 'node:http';

/** How long a client may take nothing of what waits for it before its stream is ended. */
export const STALL_MS = 20_000;
const LOOK_EVERY_MS = 1000;

/** What the watch saw last: the bytes the connection had handed to the network, and since when. */
export interface Progress {
  readonly written: number;
  readonly since: number;
}

/**
 * The progress after a look at `now`: bytes that moved, or nothing waiting to be sent (an idle
 * follower between events is not stalled), start it again.
 */
export const progressed = (last: Progress, written: number, waiting: boolean, now: number): Progress =>
  written !== last.written || !waiting ? { written, since: now } : last;

export const isStalled = (progress: Progress, now: number, stallMs = STALL_MS): boolean => now - progress.since >= stallMs;

/** Ends `response` once its client has taken nothing of what waits for it for `stallMs`. */
export function endWhenStalled(response: ServerResponse, stallMs = STALL_MS, now = Date.now): void {
  const socket = response.socket;
  if (!socket) return;
  let progress: Progress = { written: socket.bytesWritten, since: now() };
  const watch = setInterval(() => {
    const waiting = response.writableLength > 0 || socket.writableLength > 0 || response.writableNeedDrain;
    progress = progressed(progress, socket.bytesWritten, waiting, now());
    if (isStalled(progress, now(), stallMs)) response.destroy();
  }, LOOK_EVERY_MS);
  watch.unref();
  response.once('close', () => clearInterval(watch));
}
