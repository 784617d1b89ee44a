// The envelope every event travels in, from the decider to the log, the projections and the bus.

/** What a decider returns: a past-tense fact with its payload. */
export interface DomainEvent<T extends string = string, D = unknown> {
  readonly type: T;
  readonly data: D;
}

export interface EventMetadata {
  readonly actorId: string | null;
  readonly correlationId: string;
  readonly causationId: string | null;
  readonly occurredAt: string;
  readonly schemaVersion: number;
}

/** An event ready to append: the decider's fact plus its id and metadata. */
export interface NewEvent extends DomainEvent {
  readonly id: string;
  readonly metadata: EventMetadata;
}

/** An event as the log holds it. `position` orders the whole log; `revision` orders one stream. */
export interface RecordedEvent extends NewEvent {
  readonly stream: string;
  readonly revision: number;
  readonly position: number;
}

export const streamName = (aggregate: string, id: string): string => `${aggregate}-${id}`;

/** A stream name's two parts: the aggregate it belongs to and the id of its record. */
export interface StreamParts {
  readonly aggregate: string;
  readonly id: string;
}

export function splitStream(stream: string): StreamParts {
  const dash = stream.indexOf('-');
  return { aggregate: stream.slice(0, dash), id: stream.slice(dash + 1) };
}
