// A removal takes several steps and begins with a mark in the service's own stream
// (shared/domain/removal.ts): one stopped part-way (Berth killed) would leave the service refusing
// every change until someone removed it again. The API finishes such removals when it starts, with
// the very removals the delete operations make, on no account's behalf.
// The log says which (the read models may be behind at start): a mark with no deletion after it.
// A project has no mark: its removal retires it in the log once its services are gone, so one
// retired and still there stopped between the two. A service a project's removal had marked is
// finished alone: nothing in the log tells that mark from the one its own delete makes.
// Removals are decided by the log at the revision read, so API processes starting at once may all
// try: the one that loses finds the record gone (NOT_FOUND) or overtaken (CONFLICT) and says nothing.
import { DomainError, messageOf } from '@berth/shared/errors';
import { streamName } from '@berth/shared/events/event';
import { usageKey } from '@berth/shared/domain/usage/usage';
import { everyEvent } from '@berth/shared/ports/event-store';
import { newId } from '@berth/shared/ids';
import type { Infrastructure } from '@berth/shared/runtime/infrastructure';
import { Context } from './context.ts';
import { removeProject } from './handlers/project.ts';
import { serviceKinds } from './handlers/services.ts';

/** Events of one type in the streams that begin with `prefix`; the rest of the stream's name is the record's id. */
interface Trace {
  readonly type: string;
  readonly prefix: string;
}

/** A kind of record whose removal the start finishes. */
export interface UnfinishedKind {
  readonly label: string;
  /** The first step of a removal, as the log keeps it, and the last: the record's deletion. */
  readonly begun: Trace;
  readonly ended: Trace;
  /** The removal its own delete operation makes, which goes on from wherever the last one stopped. */
  readonly remove: (id: string, ctx: Context) => Promise<unknown>;
}

/** Ids of the records of each kind whose removal began and whose record was not deleted (an id is never used again, so a deletion is the end). */
async function unfinished(infra: Infrastructure, kinds: readonly UnfinishedKind[]): Promise<Map<UnfinishedKind, Set<string>>> {
  const found = new Map(kinds.map((kind) => [kind, new Set<string>()]));
  const traces = kinds.flatMap((kind) => [
    { kind, trace: kind.begun, begun: true },
    { kind, trace: kind.ended, begun: false },
  ]);
  // One read of every kind's marks and deletions, in log order: a store that cannot filter by type (EventStoreDB) reads the log once.
  const filter = { types: [...new Set(traces.map(({ trace }) => trace.type))] };
  for await (const event of everyEvent((after, limit) => infra.eventStore.readFiltered(filter, after, limit))) {
    for (const { kind, trace, begun } of traces) {
      if (event.type !== trace.type || !event.stream.startsWith(trace.prefix)) continue;
      const id = event.stream.slice(trace.prefix.length);
      if (begun) found.get(kind)!.add(id);
      else found.get(kind)!.delete(id);
    }
  }
  return found;
}

// The mark's type follows the aggregate's name (`ApplicationRemovalBegun`, `DbgammaRemovalBegun`).
const markOf = (name: string) => `${name.charAt(0).toUpperCase()}${name.slice(1)}RemovalBegun`;

/** Services first: a project goes once its services are gone. */
export const UNFINISHED_KINDS: readonly UnfinishedKind[] = [
  ...serviceKinds.map(({ aggregate, removed, remove }) => ({
    label: aggregate.label.toLowerCase(),
    begun: { type: markOf(aggregate.name), prefix: streamName(aggregate.name, '') },
    ended: { type: removed, prefix: streamName(aggregate.name, '') },
    remove,
  })),
  {
    label: 'project',
    begun: { type: 'UsageRetired', prefix: streamName('usage', usageKey('project', '')) },
    ended: { type: 'ProjectRemoved', prefix: streamName('project', '') },
    remove: removeProject,
  },
];

/** Gone meanwhile, or being changed by another process (another API finishing it too). */
const overtaken = (error: unknown) => error instanceof DomainError && (error.code === 'NOT_FOUND' || error.code === 'CONFLICT');

/**
 * Finishes every removal the log says stopped part-way. Never throws: one that fails again (the
 * log away, say) is said in one line and left for the next start or a caller's removal.
 */
export async function finishUnfinishedRemovals(
  infra: Infrastructure, print: (line: string) => void, kinds: readonly UnfinishedKind[] = UNFINISHED_KINDS,
): Promise<void> {
  let found: Map<UnfinishedKind, Set<string>>;
  try {
    found = await unfinished(infra, kinds);
  } catch (error) {
    return print(`removals left part-way could not be looked for at start (${messageOf(error)}); the next start looks again`);
  }
  for (const [kind, ids] of found) {
    for (const id of ids) {
      // Each its own correlation, so the log tells one finished removal's events from another's.
      await kind.remove(id, new Context(infra, null, newId())).catch((error: unknown) => {
        if (!overtaken(error)) print(`the removal of ${kind.label} ${id}, left part-way, could not be finished at start (${messageOf(error)}); the next start or its removal finishes it`);
      });
    }
  }
}
