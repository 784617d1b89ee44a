// The shapes the history answers in: a page with a cursor, NDJSON for exports, server-sent events
// for followers (and a long poll for clients that do not ask for an event stream).
import { Readable, PassThrough } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { END_OF_SELECTION } from '@berth/shared/contract/events';
import type { RecordedEvent } from '@berth/shared/events/event';
import { shownEvent } from '@berth/shared/events/shown';
import type { EventStore } from '@berth/shared/ports/event-store';
import { roomIn } from '../room-in.ts';
import { StreamedAnswer } from '../streamed.ts';
import type { StreamLifetime } from '../stream-lifetime.ts';
import { followSelection, followToEnd, hasEnded, readSelection, sizeOf } from './follow.ts';
import { cursorOf, type Selection } from './selection.ts';

export interface Page {
  readonly events: readonly RecordedEvent[];
  /** Continues the same selection after this page; null when no more events follow it (a long poll's is null only once a passed `to` is reached). */
  readonly nextCursor: string | null;
}

/** An event as the history shows it: without password and token hashes, secrets still sealed. */
export const inHistory = (event: RecordedEvent): RecordedEvent => shownEvent(event, 'auditor');

/** The items of `items` while the caller may still receive them (see stream-lifetime.ts). */
async function* whileAllowed<T>(items: AsyncIterable<T>, lifetime: StreamLifetime): AsyncGenerator<T> {
  for await (const item of items) {
    if (!(await lifetime.stillAllowed())) return;
    yield item;
  }
}

/** Continues `selection` after `events`: after the last of them, or where it began when there are none. */
const cursorAfter = (selection: Selection, events: readonly RecordedEvent[]) =>
  cursorOf(selection, events.at(-1)?.position ?? selection.after);

/** How much a page answer holds at most (bar one event): a page of large events has fewer than its limit. */
const PAGE_ANSWER_BYTES = 8 * 1024 * 1024;

/** The events of a page of `selection` (up to its limit and PAGE_ANSWER_BYTES), and whether more follow them. */
async function pageUpTo(store: EventStore, selection: Selection): Promise<{ events: RecordedEvent[]; more: boolean }> {
  const events: RecordedEvent[] = [];
  let bytes = 0;
  // A page answered at once may be read in one go (bar the first event, which gives the size).
  const reading = readSelection(store, selection.filter, selection.after, Infinity, selection.limit + 1);
  try {
    for (;;) {
      const next = await reading.next();
      if (next.done) return { events, more: false };
      if (events.length === selection.limit || bytes >= PAGE_ANSWER_BYTES) return { events, more: true };
      events.push(next.value);
      bytes += sizeOf(next.value);
    }
  } finally {
    await reading.return(undefined);
  }
}

/** A page of `selection`: its cursor continues it, and is null when no more events follow. */
export async function pageOf(store: EventStore, selection: Selection): Promise<Page> {
  const { events, more } = await pageUpTo(store, selection);
  return { events: events.map(inHistory), nextCursor: more ? cursorAfter(selection, events) : null };
}

/** A page of one stream (`selection` names it): on the last page, the revision is the stream's. */
export async function streamPageOf(store: EventStore, selection: Selection): Promise<Page & { readonly revision: number }> {
  const page = await pageOf(store, selection);
  return { ...page, revision: page.events.at(-1)?.revision ?? -1 };
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
    // Bytes, not objects: the buffer is bounded by size (a line can be megabytes), and the log is
    // read only as fast as the client takes the lines. A caller refused meanwhile gets no more, and
    // its connection is cut (the abort below), so the export does not look complete.
    const body = Readable.from(lines(whileAllowed(readSelection(this.store, filter, after), lifetime)), { objectMode: false });
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
        for await (const event of whileAllowed(followToEnd(this.store, this.selection.filter, after, stop.signal), lifetime)) {
          if (stop.signal.aborted) break;
          out.write(frame(event));
          await roomIn(out, stop.signal);
        }
        // Said, so a client tells the end of a closed range from a lost connection it would reconnect after.
        if (!stop.signal.aborted && hasEnded(this.selection.filter) && await lifetime.stillAllowed()) out.write(`event: ${END_OF_SELECTION}\ndata: {}\n\n`);
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
   * Its cursor is null only once a selection whose `to` has passed is answered to its end (a page of
   * it answers at once); else the poller always polls again, from where this answer left off.
   */
  private async longPoll(after: number, lifetime: StreamLifetime): Promise<Page> {
    const selection = { ...this.selection, after };
    if (hasEnded(selection.filter)) return pageOf(this.store, selection);
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
