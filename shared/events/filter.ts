// Which events an auditor asked for. One predicate, so every event store answers a filtered read
// the same way, and live followers filter exactly as the paged reads do.
import type { RecordedEvent } from './event.ts';

export interface EventFilter {
  /** One stream, `<aggregate>-<id>`. */
  readonly stream?: string;
  /** The aggregate type: the stream's prefix before its first dash. */
  readonly aggregate?: string;
  readonly type?: string;
  /** Any of these types: what Berth itself looks for at start in one read, not an auditor's filter. */
  readonly types?: readonly string[];
  readonly actorId?: string;
  /** ISO-8601 instants: `from` inclusive, `to` exclusive, compared with the event's `occurredAt`. */
  readonly from?: string;
  readonly to?: string;
}

export function matchesFilter(event: RecordedEvent, filter: EventFilter): boolean {
  const { metadata } = event;
  return (filter.stream === undefined || event.stream === filter.stream)
    && (filter.aggregate === undefined || event.stream.startsWith(`${filter.aggregate}-`))
    && (filter.type === undefined || event.type === filter.type)
    && (filter.types === undefined || filter.types.includes(event.type))
    && (filter.actorId === undefined || metadata.actorId === filter.actorId)
    && (filter.from === undefined || Date.parse(metadata.occurredAt) >= Date.parse(filter.from))
    && (filter.to === undefined || Date.parse(metadata.occurredAt) < Date.parse(filter.to));
}

/**
 * A filtered read for stores without a query of their own: pages through `readAll` and keeps the
 * matching events. Fine for small logs and for conformance; an adapter should push the filter down.
 */
export async function readFilteredByScan(
  readAll: (after: number, limit: number) => Promise<readonly RecordedEvent[]>,
  filter: EventFilter, after: number, limit: number,
): Promise<RecordedEvent[]> {
  const found: RecordedEvent[] = [];
  let position = after;
  for (;;) {
    const page = await readAll(position, 1000);
    for (const event of page) {
      if (matchesFilter(event, filter)) found.push(event);
      if (found.length === limit) return found;
    }
    if (page.length < 1000) return found;
    position = page[page.length - 1]!.position;
  }
}
