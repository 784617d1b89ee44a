// The shapes the history answers in: a page with a cursor, NDJSON for exports, server-sent events
// for followers (and a long poll for clients that do not ask for an event stream).
import { Readable, PassThrough, type Writable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RecordedEvent } from '@berth/shared/events/event';
import { shownEvent } from '@berth/shared/events/shown';
import type { EventStore } from '@berth/shared/ports/event-store';
import { StreamedAnswer } from '../streamed.ts';
import type { StreamLifetime } from '../stream-lifetime.ts';
import { followSelection, readSelection } from './follow.ts';
import { cursorOf, type Selection } from './selection.ts';

export interface Page {
  readonly events: readonly RecordedEvent[];
  /** Continues the same selection after this page; null when a page of `events.all` reached the end of the log (a long poll's never is). */
  readonly nextCursor: string | null;
}

/** An event as the history shows it: without password and token hashes, secrets still sealed. */
export const inHistory = (event: RecordedEvent): RecordedEvent => shownEvent(event, 'auditor');

/** Continues `selection` after `events`: after the last of them, or where it began when there are none. */
const cursorAfter = (selection: Selection, events: readonly RecordedEvent[]) =>
  cursorOf(selection, events.at(-1)?.position ?? selection.after);

export async function pageOf(store: EventStore, selection: Selection): Promise<Page> {
  const events = await store.readFiltered(selection.filter, selection.after, selection.limit);
  const full = events.length === selection.limit;
  return { events: events.map(inHistory), nextCursor: full ? cursorAfter(selection, events) : null };
}

async function* lines(events: AsyncIterable<RecordedEvent>): AsyncGenerator<string> {
  for await (const event of events) yield `${JSON.stringify(inHistory(event))}\n`;
}

/** Every event of the selection, one JSON document a line. */
export class NdjsonExport extends StreamedAnswer {
  constructor(private readonly store: EventStore, private readonly selection: Selection) {
    super();
  }

  send(_request: FastifyRequest, reply: FastifyReply, lifetime: StreamLifetime) {
    const { filter, after } = this.selection;
    const body = Readable.from(lines(readSelection(this.store, filter, after)));
    lifetime.signal.addEventListener('abort', () => body.destroy(), { once: true });
    return reply.type('application/x-ndjson; charset=utf-8')
      .header('content-disposition', 'attachment; filename="berth-events.ndjson"')
      .send(body);
  }
}

const HEARTBEAT_MS = 15_000;
/** How long a follower that does not take an event stream waits for the first new event. */
const LONG_POLL_MS = 20_000;
const LAST_EVENT_ID = /^[0-9]{1,15}$/;

/** Resolves once `out` has room again (at once if it has), or once the follower has gone. */
function roomIn(out: Writable, stop: AbortSignal): Promise<void> {
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

const frame = (event: RecordedEvent) => `id: ${event.position}\nevent: ${event.type}\ndata: ${JSON.stringify(inHistory(event))}\n\n`;

export class Following extends StreamedAnswer {
  constructor(private readonly store: EventStore, private readonly selection: Selection) {
    super();
  }

  async send(request: FastifyRequest, reply: FastifyReply, lifetime: StreamLifetime) {
    const lastEventId = request.headers['last-event-id'];
    // A reconnecting EventSource says where it stopped.
    const after = typeof lastEventId === 'string' && LAST_EVENT_ID.test(lastEventId) ? Number(lastEventId) : this.selection.after;
    if (!String(request.headers.accept ?? '').includes('text/event-stream')) return reply.send(await this.longPoll(after, lifetime));
    const stop = new AbortController();
    const out = new PassThrough();
    // A first comment sends the headers now: clients see the stream open before any event.
    out.write(': following\n\n');
    // A follower that is not reading needs no keep-alive, and must not be sent more than it takes.
    const heartbeat = setInterval(() => { if (!out.writableNeedDrain) out.write(': keep-alive\n\n'); }, HEARTBEAT_MS);
    const end = () => { clearInterval(heartbeat); stop.abort(); };
    out.once('close', end);
    lifetime.signal.addEventListener('abort', end, { once: true });
    // The response closes when the follower goes away (the request's own 'close' fires once its body is read).
    reply.raw.once('close', end);
    void (async () => {
      try {
        // One event at a time, as fast as the follower takes them: the log is read no faster.
        for await (const event of followSelection(this.store, this.selection.filter, after, stop.signal)) {
          if (stop.signal.aborted || !(await lifetime.stillAllowed())) break;
          out.write(frame(event));
          await roomIn(out, stop.signal);
        }
      } catch (error) {
        request.log.warn({ err: error }, 'events.follow stopped');
      } finally {
        end();
        out.end();
      }
    })();
    return reply.type('text/event-stream; charset=utf-8').header('cache-control', 'no-cache').header('x-accel-buffering', 'no').send(out);
  }

  /**
   * The events after `after`, waiting a bounded time for the first one when there are none yet.
   * Its cursor is never null: the poller always polls again, from where this answer left off.
   */
  private async longPoll(after: number, lifetime: StreamLifetime): Promise<Page> {
    const selection = { ...this.selection, after };
    const polled = async (): Promise<Page> => {
      const { events } = await pageOf(this.store, selection);
      return { events, nextCursor: cursorAfter(selection, events) };
    };
    const page = await polled();
    if (page.events.length > 0) return page;
    const stop = new AbortController();
    const timer = setTimeout(() => stop.abort(), LONG_POLL_MS);
    const end = () => stop.abort();
    lifetime.signal.addEventListener('abort', end, { once: true });
    try {
      for await (const _event of followSelection(this.store, selection.filter, after, stop.signal)) break;
    } finally {
      clearTimeout(timer);
      lifetime.signal.removeEventListener('abort', end);
      stop.abort();
    }
    // A caller refused meanwhile (token revoked, access withdrawn) gets that refusal, not the events.
    if (!(await lifetime.stillAllowed())) throw lifetime.signal.reason;
    return polled();
  }
}
