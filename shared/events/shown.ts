// An event as it is shown outside Berth: without the fields its aggregate hides from every answer
// (password and token hashes, private keys), at any depth. The history, an admin's, keeps sealed
// secrets as they are (an auditor sees that one changed, and cannot open it), the services' `env`
// among them: it is recorded sealed, as its text holds the service's secrets (passwords a template
// generated, tokens a user set). A webhook body, bound for a third party, drops the sealed secrets
// too, since a sealed copy opens with the instance key, and every `env` by name: the events
// appended before env was sealed hold it in clear, and the log keeps them as they were.
import { isSealed } from '../crypto/secrets.ts';
import { aggregates } from '../domain/index.ts';
import { splitStream, type RecordedEvent } from './event.ts';

const hiddenByAggregate = new Map(aggregates.map((aggregate) => [aggregate.name, new Set(aggregate.hidden ?? [])]));
const NONE: ReadonlySet<string> = new Set();
/** Fields whose text holds secrets, kept from third parties even where an older event has it in clear. */
const SECRET_TEXT = ['env'];
const hiddenFromReceivers = new Map([...hiddenByAggregate].map(([name, hidden]) => [name, new Set([...hidden, ...SECRET_TEXT])]));

function without(hidden: ReadonlySet<string>, dropSealed: boolean, value: unknown): unknown {
  const kept = (item: unknown) => !(dropSealed && isSealed(item));
  if (Array.isArray(value)) return value.filter(kept).map((item) => without(hidden, dropSealed, item));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value)
    .filter(([key, item]) => !hidden.has(key) && kept(item))
    .map(([key, item]) => [key, without(hidden, dropSealed, item)]));
}

/** `event` as shown to an auditor (the history) or to a webhook's receiver. */
export function shownEvent(event: RecordedEvent, to: 'auditor' | 'receiver'): RecordedEvent {
  const { aggregate } = splitStream(event.stream);
  const hidden = (to === 'receiver' ? hiddenFromReceivers : hiddenByAggregate).get(aggregate) ?? NONE;
  if (hidden.size === 0 && to === 'auditor') return event;
  return { ...event, data: without(hidden, to === 'receiver', event.data) as RecordedEvent['data'] };
}
