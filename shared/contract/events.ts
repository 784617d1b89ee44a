// The event history, for auditors (beyond the spec; admin only). Queries carry numbers as
// decimal text: they arrive in the query string.
import { Type } from '@sinclair/typebox';
import { group, get } from './operation.ts';
import { Closed, Instant, MinStr, Nullable, Num, Opt, Str, WholeNumberText } from './schema.ts';

/** The most events one page answers. */
export const MAX_PAGE_SIZE = 1000;
export const DEFAULT_PAGE_SIZE = 100;


const filter = {
  stream: Opt(Type.String({ minLength: 1, description: 'one stream, `<aggregate>-<id>`' })),
  aggregate: Opt(Type.String({ minLength: 1, pattern: '^[A-Za-z0-9_]+$', description: 'an aggregate type: letters, digits or "_" (`application`, `project`, ...)' })),
  type: Opt(Type.String({ minLength: 1, description: 'an event type (`ApplicationCreated`)' })),
  actorId: Opt(Type.String({ minLength: 1, description: 'the account that acted' })),
  from: Opt(Instant('occurred at or after this instant')),
  to: Opt(Instant('occurred before this instant')),
  after: Opt(WholeNumberText('only events after this log position', 0)),
};

/** An event as the log recorded it; its data is the event's own (secrets in it stay sealed). */
const RecordedEvent = Closed({
  id: Str(), type: Str(), stream: Str(), revision: Num(), position: Num(),
  data: Type.Object({}, { additionalProperties: true }),
  metadata: Closed({
    actorId: Nullable(Str()), correlationId: Str(), causationId: Nullable(Str()), occurredAt: Str(), schemaVersion: Num(),
  }),
});
const Page = Closed({ events: Type.Array(RecordedEvent), nextCursor: Nullable(Str()) });
/** Where a page left off: a page's `nextCursor`, given back with the same filters. */
const continued = {
  cursor: Opt(Type.String({ minLength: 1, description: 'the nextCursor of the previous page of the same selection, sent with the same filters (after among them, or left out)' })),
};
/** A page's bounds: how many events, and where the previous page left off. */
const paged = {
  ...continued,
  limit: Opt(WholeNumberText(`page size, 1 to ${MAX_PAGE_SIZE} (default ${DEFAULT_PAGE_SIZE})`, 1, MAX_PAGE_SIZE)),
};

/** The server-sent event that ends a follow whose `to` has passed: the selection is complete, not the connection lost. */
export const END_OF_SELECTION = 'end-of-selection';

export const events = group('events', {
  /** A page of the whole log, oldest first; `nextCursor` continues the same selection. */
  all: get(Closed({ ...filter, ...paged }), Closed({ ...Page.properties, head: Num() })),
  /**
   * One aggregate's history, a page at a time as `events.all`'s, with each event's revision in its
   * stream; `revision` is the last shown event's, the stream's own on its last page (no `nextCursor`).
   */
  stream: get(Closed({ stream: MinStr(), ...paged }), Closed({ stream: Str(), revision: Num(), ...Page.properties })),
  /** Server-sent events of the selection, from a position, live (or a long poll, whose page's cursor it takes back). */
  follow: get(Closed({ ...filter, ...continued }), Page),
  /** The whole selection as NDJSON, one event a line. */
  export: get(Closed(filter), Str()),
});
