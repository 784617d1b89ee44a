// What an auditor asked for: the filter, where to start and how many. Cursors are tied to the
// selection they came from, so a cursor handed to another query is refused, not misread.
import { createHash } from 'node:crypto';
import { DEFAULT_PAGE_SIZE } from '@berth/shared/contract/events';
import type { EventFilter } from '@berth/shared/events/filter';
import { badRequest } from '@berth/shared/errors';
import { isAggregateName, isEventType } from './known-names.ts';

/** The query: a filter (instants as given), where to start, how many. */
export interface SelectionInput extends EventFilter {
  readonly after?: string;
  readonly cursor?: string;
  readonly limit?: string;
}

export interface Selection {
  readonly filter: EventFilter;
  /** Events strictly after this log position. */
  readonly after: number;
  /** The `after` the first page was asked from: its cursors carry it, so a client may repeat it with them. */
  readonly origin: number;
  readonly limit: number;
}

/**
 * `instant` as the log writes them, in whole milliseconds, a part of one rounded up: no event lies
 * between it and the next whole one, so `from` (inclusive) and `to` (exclusive) keep their meaning.
 */
function inWholeMilliseconds(instant: string): string {
  const finer = /[1-9]/.test(/\.\d{3}(\d+)/.exec(instant)?.[1] ?? '');
  return new Date(Date.parse(instant) + (finer ? 1 : 0)).toISOString();
}

/** Refuses a type or an aggregate the log cannot hold, naming the field. */
function mustBeKnown({ type, aggregate }: SelectionInput): void {
  if (type !== undefined && !isEventType(type)) throw badRequest('type', `names ${JSON.stringify(type)}, which is not an event type`);
  if (aggregate !== undefined && !isAggregateName(aggregate)) throw badRequest('aggregate', `names ${JSON.stringify(aggregate)}, which is not an aggregate`);
}

/** The filter of `input`, instants in one canonical form; a backwards range, an unknown type or aggregate are refused. */
export function filterOf(input: SelectionInput): EventFilter {
  mustBeKnown(input);
  const from = input.from === undefined ? undefined : inWholeMilliseconds(input.from);
  const to = input.to === undefined ? undefined : inWholeMilliseconds(input.to);
  if (from !== undefined && to !== undefined && from > to) throw badRequest('to', 'must not be before from');
  const filter = { stream: input.stream, aggregate: input.aggregate, type: input.type, actorId: input.actorId, from, to };
  return Object.fromEntries(Object.entries(filter).filter(([, value]) => value !== undefined));
}

const fingerprintOf = (filter: EventFilter) =>
  createHash('sha256').update(JSON.stringify(Object.entries(filter).sort())).digest('base64url').slice(0, 16);

/** A cursor continuing `selection` strictly after `position`. */
export const cursorOf = ({ filter, origin }: Pick<Selection, 'filter' | 'origin'>, position: number): string =>
  Buffer.from(JSON.stringify({ p: position, f: fingerprintOf(filter), a: origin })).toString('base64url');

const isPosition = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

/** Where `cursor` continues, and the `after` it came with. */
function readCursor(cursor: string, filter: EventFilter): { position: number; origin: number } {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw badRequest('cursor', 'is not a cursor Berth gave out');
  }
  // Cursors given out before they carried `a` were never to be sent with an `after`: as if it were 0.
  const { p, f, a = 0 } = (decoded ?? {}) as { p?: unknown; f?: unknown; a?: unknown };
  if (!isPosition(p) || !isPosition(a) || typeof f !== 'string') throw badRequest('cursor', 'is not a cursor Berth gave out');
  if (f !== fingerprintOf(filter)) throw badRequest('cursor', 'belongs to another selection; repeat the filters it came with');
  return { position: p, origin: a };
}

export function selectionOf(input: SelectionInput): Selection {
  const filter = filterOf(input);
  // The contract bounds the limit (1 to MAX_PAGE_SIZE): the query was checked against it.
  const limit = Number(input.limit ?? DEFAULT_PAGE_SIZE);
  const after = input.after === undefined ? undefined : Number(input.after);
  if (input.cursor === undefined) return { filter, after: after ?? 0, origin: after ?? 0, limit };
  const { position, origin } = readCursor(input.cursor, filter);
  // `after` is one of the filters a cursor is sent back with (or left out); another one is another selection.
  if (after !== undefined && after !== origin) throw badRequest('cursor', `came with after ${origin}: repeat that after with it, or leave after out`);
  return { filter, after: position, origin, limit };
}
