// Backpressure for the streams written by hand (server-sent events): write, then wait for room.
import type { Writable } from 'node:stream';

/** Resolves once `out` has room again (at once if it has), or once `stop` aborts (the client has gone). */
export function roomIn(out: Writable, stop: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (!out.writableNeedDrain || stop.aborted) return resolve();
    const done = () => {
      out.off('drain', done);
      stop.removeEventListener('abort', done);
      resolve();
    };
    out.once('drain', done);
    stop.addEventListener('abort', done, { once: true });
  });
}
