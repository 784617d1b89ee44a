// An event as it is shown outside Berth: without the fields its aggregate hides from every answer
// (password and token hashes, private keys), at any depth. The history keeps sealed secrets as
// they are (an auditor sees that one changed, and cannot open it); a webhook body, bound for a
// third party, drops them too, since a sealed copy opens with the instance key.
import { isSealed } from '../crypto/secrets.ts';
import { aggregates } from '../domain/index.ts';
import { splitStream, type RecordedEvent } from './event.ts';

const hiddenByAggregate = new Map(aggregates.map((aggregate) => [aggregate.name, new Set(aggregate.hidden ?? [])]));
const NONE: ReadonlySet<string> = new Set();

function without(hidden: ReadonlySet<string>, dropSealed: boolean, value: unknown): unknown {
  const kept = (item: unknown) => !(dropSealed && isSealed(item));
  if (Array.isArray(value)) return value.filter(kept).map((item) => without(hidden, dropSealed, item));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value)
    .filter(([key, item]) => !hidden.has(key) && kept(item))
    .map(([key, item]) => [key, without(hidden, dropSealed, item)]));
}

export function shownEvent(event: RecordedEvent, sealed: 'keep' | 'drop'): RecordedEvent {
  const hidden = hiddenByAggregate.get(splitStream(event.stream).aggregate) ?? NONE;
  if (hidden.size === 0 && sealed === 'keep') return event;
  return { ...event, data: without(hidden, sealed === 'drop', event.data) as RecordedEvent['data'] };
}
