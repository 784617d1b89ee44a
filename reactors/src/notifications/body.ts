// What a webhook receiver is shown of an event: the recorded event without the fields its
// aggregate hides from every answer (password and token hashes, private keys), at any depth.
// Sealed values stay sealed: nothing here opens them.
import { aggregates } from '@berth/shared/domain/index';
import { splitStream, type RecordedEvent } from '@berth/shared/events/event';

const hiddenByAggregate = new Map(aggregates.map((aggregate) => [aggregate.name, new Set(aggregate.hidden ?? [])]));

function without(hidden: ReadonlySet<string>, value: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => without(hidden, item));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).filter(([key]) => !hidden.has(key)).map(([key, item]) => [key, without(hidden, item)]));
}

export function notificationBodyOf(event: RecordedEvent): string {
  const hidden = hiddenByAggregate.get(splitStream(event.stream).aggregate);
  return JSON.stringify(hidden && hidden.size > 0 ? { ...event, data: without(hidden, event.data) } : event);
}
