// How long a streamed answer (a followed history, a followed deployment log) may go on: while the
// server is not closing, and while its caller may still call the operation. The caller was
// authenticated once, when the stream opened; a token revoked or expired since, or an access
// withdrawn, must stop what it receives, and a server asked to stop must not wait for followers
// who never hang up.
import type { FastifyReply } from 'fastify';
import { DomainError } from '@berth/shared/errors';
import { endWhenStalled } from './stalled-stream.ts';

/** How stale the last "still allowed" may be when an event is about to be sent. */
const RECHECK_MS = 1000;
/** How long a stopping server waits for its streams to end once told to. */
const END_WAIT_MS = 2000;

export interface StreamLifetime {
  /** Aborts when the server closes, or once a check finds the caller no longer allowed. */
  readonly signal: AbortSignal;
  /** Whether the caller may still receive what follows (checked again at most once a second). */
  stillAllowed(): Promise<boolean>;
}

/**
 * The streams a server answers with. At a stop they are ended, and the server waits for them to
 * be: a connection still busy when the server stops listening is not closed with the idle ones,
 * and a client that keeps it alive would hold the stop for as long as it likes.
 */
export class Streams {
  private readonly closing = new AbortController();
  private readonly open = new Set<Promise<void>>();

  /** The lifetime of the stream `reply` answers with (see streamLifetime). */
  lifetime(reply: FastifyReply, allowed: () => Promise<void>): StreamLifetime {
    const ended = new Promise<void>((resolve) => reply.raw.once('close', resolve));
    this.open.add(ended);
    void ended.then(() => this.open.delete(ended));
    endWhenStalled(reply.raw);
    return streamLifetime(reply, this.closing.signal, allowed);
  }

  /** Ends every stream, and resolves once they have ended (or after a bound). */
  async close(reason: unknown): Promise<void> {
    this.closing.abort(reason);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all(this.open), new Promise((resolve) => { timer = setTimeout(resolve, END_WAIT_MS); })]);
    clearTimeout(timer);
  }
}

/**
 * The lifetime of the stream `reply` answers with. `allowed` authenticates and authorises the
 * call again, throwing the API's refusal when it no longer may; other failures (a store out of
 * reach) do not end the stream.
 */
export function streamLifetime(reply: FastifyReply, closing: AbortSignal, allowed: () => Promise<void>, now = Date.now): StreamLifetime {
  const controller = new AbortController();
  const onClosing = () => controller.abort(closing.reason);
  if (closing.aborted) onClosing();
  else closing.addEventListener('abort', onClosing, { once: true });
  reply.raw.once('close', () => closing.removeEventListener('abort', onClosing));
  let checkedAt = now();
  let check: Promise<boolean> | null = null;
  const recheck = async () => {
    try {
      await allowed();
      checkedAt = now();
      return true;
    } catch (error) {
      if (!(error instanceof DomainError)) return true;
      controller.abort(error);
      return false;
    } finally {
      check = null;
    }
  };
  return {
    signal: controller.signal,
    stillAllowed: () => {
      if (controller.signal.aborted) return Promise.resolve(false);
      if (now() - checkedAt < RECHECK_MS) return Promise.resolve(true);
      return (check ??= recheck());
    },
  };
}
