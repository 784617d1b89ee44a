// The generic command handler every writer shares (the API's requests and the reactors' reports):
// read the stream, fold it, decide, append at the revision that was read; a race re-decides.
import { isDeepStrictEqual } from 'node:util';
import type { AnyAggregate } from '../domain/aggregate.ts';
import { fold } from '../domain/aggregate.ts';
import { conflict } from '../errors.ts';
import { schemaVersionOf } from '../events/catalogue.ts';
import type { DomainEvent, EventMetadata, NewEvent } from '../events/event.ts';
import { streamName } from '../events/event.ts';
import { newTimeOrderedId } from '../ids.ts';
import { WrongExpectedVersionError, type EventStore } from '../ports/event-store.ts';

export interface FoldedState {
  readonly state: unknown;
  readonly revision: number;
}

/** Where a writer may keep folded states; a stale one only costs a retry. */
export interface StateMemory {
  get(stream: string): FoldedState | undefined;
  set(stream: string, entry: FoldedState): void;
  forget(stream: string): void;
}

export interface Executed<S> {
  readonly before: S | null;
  readonly after: S | null;
  /** Log position of the last event appended, 0 when the decision was empty. */
  readonly position: number;
  /** The stream's revision after it (as it was read, when the decision was empty). */
  readonly revision: number;
}

/** The metadata of the events a command appends, less what each event gets of its own. */
export type Cause = Omit<EventMetadata, 'schemaVersion'>;

/**
 * How long a command keeps re-deciding while other writers take its stream's revision first. Many
 * requests may rightly share one stream (fifty applications starting to use one registry): each
 * round one of them wins, so they all get through; only a stream that never settles is refused.
 */
export const CONTENDED_FOR_MS = 5_000;
/** Attempts made at once before the next ones wait a little: a second writer process then interleaves. */
const EAGER_ATTEMPTS = 3;
const MAX_BACKOFF_MS = 50;

const backoff = (attempt: number) => new Promise((resolve) => {
  setTimeout(resolve, Math.random() * Math.min(MAX_BACKOFF_MS, 2 ** (attempt - EAGER_ATTEMPTS)));
});

export const envelope = (event: DomainEvent, cause: Cause): NewEvent => ({
  id: newTimeOrderedId(), type: event.type, data: event.data, metadata: { ...cause, schemaVersion: schemaVersionOf(event.type) },
});

export async function load(store: EventStore, aggregate: AnyAggregate, id: string, memory?: StateMemory): Promise<FoldedState> {
  const stream = streamName(aggregate.name, id);
  const cached = memory?.get(stream);
  if (cached) return cached;
  const { events, revision } = await store.readStream(stream);
  const folded = { state: fold(aggregate, events), revision };
  memory?.set(stream, folded);
  return folded;
}

/** Decides `command` on the stream as `folded` and appends at its revision; WrongExpectedVersionError when the stream moved on. */
async function decideAndAppend<S>(
  store: EventStore, aggregate: AnyAggregate, id: string, command: DomainEvent, cause: Cause, folded: FoldedState, memory?: StateMemory,
): Promise<Executed<S>> {
  const stream = streamName(aggregate.name, id);
  const { state, revision } = folded;
  const decided = aggregate.decide(command, state as object | null);
  if (decided.length === 0) return { before: state as S | null, after: state as S | null, position: 0, revision };
  try {
    const result = await store.append(stream, decided.map((event) => envelope(event, cause)), revision === -1 ? 'no_stream' : revision);
    const after = fold(aggregate, decided, state as object | null);
    memory?.set(stream, { state: after, revision: result.revision });
    return { before: state as S | null, after: after as S | null, position: result.position, revision: result.revision };
  } catch (error) {
    // Whatever happened, what this process knew of the stream may be behind: read it again.
    memory?.forget(stream);
    throw error;
  }
}

export async function execute<S>(
  store: EventStore, aggregate: AnyAggregate, id: string, command: DomainEvent, cause: Cause, memory?: StateMemory,
  mustStillHold?: (folded: FoldedState) => void,
): Promise<Executed<S>> {
  const giveUpAt = Date.now() + CONTENDED_FOR_MS;
  for (let attempt = 1; attempt === 1 || Date.now() < giveUpAt; attempt++) {
    if (attempt > EAGER_ATTEMPTS) await backoff(attempt);
    try {
      const folded = await load(store, aggregate, id, memory);
      mustStillHold?.(folded);
      return await decideAndAppend<S>(store, aggregate, id, command, cause, folded, memory);
    } catch (error) {
      if (!(error instanceof WrongExpectedVersionError)) throw error;
    }
  }
  throw conflict(`${aggregate.label} ${id} is being changed by other requests; try again`);
}

/** The record apart from what work under way changes on its own (a status), which a change read before it still applies over. */
const settled = (aggregate: AnyAggregate, state: unknown): unknown => {
  if (state === null || typeof state !== 'object' || !aggregate.volatile) return state;
  const rest: Record<string, unknown> = { ...state };
  for (const field of aggregate.volatile) delete rest[field];
  return rest;
};

/**
 * As `execute`, but only on the record as the caller read it (`held`), which it decided its side
 * effects from (the claims it takes and lets go): CONFLICT naming the id field when another writer
 * changed it meanwhile, since deciding again would leave those side effects wrong. A change of only
 * its volatile fields (a deployment moving its status on) is not such a change: it is decided again.
 */
export function executeAt<S>(
  store: EventStore, aggregate: AnyAggregate, id: string, command: DomainEvent, cause: Cause, held: FoldedState, memory?: StateMemory,
): Promise<Executed<S>> {
  const read = settled(aggregate, held.state);
  return execute<S>(store, aggregate, id, command, cause, memory, (folded) => {
    if (folded.revision !== held.revision && !isDeepStrictEqual(settled(aggregate, folded.state), read)) {
      throw conflict('was changed by another request while this one was being made: read it again and retry', aggregate.idField);
    }
  });
}
