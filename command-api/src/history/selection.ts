// What an auditor asked for: the filter, where to start and how many. Cursors are tied to the
// selection they came from, so a cursor handed to another query is refused, not misread.
import { createHash } from 'node:crypto';
import { DEFAULT_PAGE_SIZE } from '@berth/shared/contract/events';
import type { EventFilter } from '@berth/shared/events/filter';
import { badRequest } from '@berth/shared/errors';

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
  readonly limit: number;
}

/** The filter of `input`, instants in one canonical form; a backwards range is refused. */
export function filterOf(input: SelectionInput): EventFilter {
  const from = input.from === undefined ? undefined : new Date(input.from).toISOString();
  const to = input.to === undefined ? undefined : new Date(input.to).toISOString();
  if (from !== undefined && to !== undefined && from > to) throw badRequest('to', 'must not be before from');
  const filter = { stream: input.stream, aggregate: input.aggregate, type: input.type, actorId: input.actorId, from, to };
  return Object.fromEntries(Object.entries(filter).filter(([, value]) => value !== undefined));
}

const fingerprintOf = (filter: EventFilter) =>
  createHash('sha256').update(JSON.stringify(Object.entries(filter).sort())).digest('base64url').slice(0, 16);

/** A cursor continuing `filter` strictly after `position`. */
export const cursorOf = (filter: EventFilter, position: number): string =>
  Buffer.from(JSON.stringify({ p: position, f: fingerprintOf(filter) })).toString('base64url');

function positionOfCursor(cursor: string, filter: EventFilter): number {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw badRequest('cursor', 'is not a cursor Berth gave out');
  }
  const { p, f } = (decoded ?? {}) as { p?: unknown; f?: unknown };
  if (!Number.isSafeInteger(p) || (p as number) < 0 || typeof f !== 'string') throw badRequest('cursor', 'is not a cursor Berth gave out');
  if (f !== fingerprintOf(filter)) throw badRequest('cursor', 'belongs to another selection; repeat the filters it came with');
  return p as number;
}

export function selectionOf(input: SelectionInput): Selection {
  const filter = filterOf(input);
  if (input.cursor !== undefined && input.after !== undefined) throw badRequest('cursor', 'cannot be given with after: give one or the other');
  const after = input.cursor !== undefined ? positionOfCursor(input.cursor, filter) : Number(input.after ?? 0);
  // The contract bounds the limit (1 to MAX_PAGE_SIZE): the query was checked against it.
  const limit = Number(input.limit ?? DEFAULT_PAGE_SIZE);
  return { filter, after, limit };
}
