// An event as it is shown outside Berth: without the fields its aggregate hides from every answer
// (password and token hashes, private keys), at any depth; the history shows that a password was
// changed (not its hash), and when older tokens stopped working. The history, an admin's, keeps sealed
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
/** Fields hidden from the records that an auditor sees: no secrets, they say from when an account's older tokens stopped working. */
const SHOWN_TO_AUDITORS: ReadonlySet<string> = new Set(['tokensValidFrom', 'keptSessionId']);
/**
 * Hidden hashes an auditor sees were changed (a password changed, or reset by an admin), never the
 * hash: by event type, the mark that takes their place. An account's first password is its creation.
 */
const CHANGE_MARKS: Readonly<Record<string, Readonly<Record<string, string>>>> = { ProfileUpdated: { passwordHash: 'passwordChanged' } };
const hiddenFromAuditors = new Map([...hiddenByAggregate].map(([name, hidden]) => [name, new Set([...hidden].filter((field) => !SHOWN_TO_AUDITORS.has(field)))]));
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

/** The data of `event` with a mark for each hash it changes, for an auditor. */
function withChangeMarks({ type, data }: RecordedEvent): unknown {
  const changes = CHANGE_MARKS[type];
  if (!changes || data === null || typeof data !== 'object') return data;
  const marks = Object.entries(changes).filter(([field]) => field in data).map(([, mark]) => [mark, true]);
  return marks.length === 0 ? data : { ...data, ...Object.fromEntries(marks) };
}

/** `event` as shown to an auditor (the history) or to a webhook's receiver. */
export function shownEvent(event: RecordedEvent, to: 'auditor' | 'receiver'): RecordedEvent {
  const { aggregate } = splitStream(event.stream);
  const hidden = (to === 'receiver' ? hiddenFromReceivers : hiddenFromAuditors).get(aggregate) ?? NONE;
  if (hidden.size === 0 && to === 'auditor') return event;
  const data = to === 'auditor' ? withChangeMarks(event) : event.data;
  return { ...event, data: without(hidden, to === 'receiver', data) as RecordedEvent['data'] };
}
