// What a webhook receiver is shown of an event: the recorded event without the fields its
// aggregate hides from every answer (password and token hashes, private keys) and without any
// sealed secret, at any depth. A sealed value is safe only while the instance key is: a copy in a
// receiver's hands would open with it, so none leaves.
import { isSealed } from '@berth/shared/crypto/secrets';
import { aggregates } from '@berth/shared/domain/index';
import { splitStream, type RecordedEvent } from '@berth/shared/events/event';

const hiddenByAggregate = new Map(aggregates.map((aggregate) => [aggregate.name, new Set(aggregate.hidden ?? [])]));
const NONE: ReadonlySet<string> = new Set();

function without(hidden: ReadonlySet<string>, value: unknown): unknown {
  if (Array.isArray(value)) return value.filter((item) => !isSealed(item)).map((item) => without(hidden, item));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value)
    .filter(([key, item]) => !hidden.has(key) && !isSealed(item))
    .map(([key, item]) => [key, without(hidden, item)]));
}

export function notificationBodyOf(event: RecordedEvent): string {
  const hidden = hiddenByAggregate.get(splitStream(event.stream).aggregate) ?? NONE;
  return JSON.stringify({ ...event, data: without(hidden, event.data) });
}
