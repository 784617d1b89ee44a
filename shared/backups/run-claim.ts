// One run at a time per backup, across processes (behaviour.md): before a run starts, it claims its
// backup's `backupRun` reservation, taken over only from a run recorded as ended, or from one never
// started that was claimed before this reactors term began (its process went away in between). The
// reservation is appended at the revision that was read, so of two claims at once one wins.
import { fold } from '../domain/aggregate.ts';
import { backupRunAggregate, type BackupRun } from '../domain/backup/run.ts';
import { reservationAggregate, reservationKey, type Reservation } from '../domain/reservation/reservation.ts';
import { DomainError } from '../errors.ts';
import { streamName } from '../events/event.ts';
import type { EventStore } from '../ports/event-store.ts';
import { load } from '../runtime/execute.ts';
import type { RunReservation } from '../runtime/claims.ts';

/** The run holding a backup's claim, as the log has it: its run `absent` when it was never started. */
export interface Holder {
  readonly runId: string;
  readonly claimedAt: Date;
  readonly run: 'absent' | 'running' | 'ended';
}

export type ClaimDecision = { readonly take: true; readonly from?: string } | { readonly take: false; readonly busyWith: string };

/** Whether `runId` may take its backup's claim from `holder`, in a reactors term that began at `termBegan`. */
export function decideClaim(runId: string, holder: Holder | null, termBegan: Date): ClaimDecision {
  if (!holder || holder.runId === runId) return { take: true };
  const over = holder.run === 'ended' || (holder.run === 'absent' && holder.claimedAt < termBegan);
  return over ? { take: true, from: holder.runId } : { take: false, busyWith: holder.runId };
}

const keyOf = (backupId: string) => reservationKey('backupRun', backupId);

/** The run holding `backupId`'s claim, with its run's state as recorded; null when none ever did. */
export async function holderOf(eventStore: EventStore, backupId: string): Promise<Holder | null> {
  const { events } = await eventStore.readStream(streamName(reservationAggregate.name, keyOf(backupId)));
  const held = fold(reservationAggregate, events as never) as Reservation | null;
  const last = events.at(-1);
  if (!held || !last) return null;
  const { state, revision } = await load(eventStore, backupRunAggregate, held.owner);
  // A pruned run (no state, its stream there) had ended.
  const run = revision === -1 ? 'absent' : (state as BackupRun | null)?.status === 'running' ? 'running' : 'ended';
  return { runId: held.owner, claimedAt: new Date(last.metadata.occurredAt), run };
}

/** The run of `backupId` recorded as under way now, if one holds its claim (the API's check before it asks for a run). */
export async function runUnderWay(eventStore: EventStore, backupId: string): Promise<string | null> {
  const holder = await holderOf(eventStore, backupId);
  return holder?.run === 'running' ? holder.runId : null;
}

const ATTEMPTS = 3;

/**
 * Claims `backupId` for the run `runId` before it starts: null once it holds the claim, else the id
 * of the run under way, which it must not start beside. The same run claiming again holds it already.
 */
export async function claimRun(
  eventStore: EventStore, reserve: RunReservation, backupId: string, runId: string, termBegan: Date,
): Promise<string | null> {
  const key = keyOf(backupId);
  for (let attempt = 1; ; attempt++) {
    const decision = decideClaim(runId, await holderOf(eventStore, backupId), termBegan);
    if (!decision.take) return decision.busyWith;
    try {
      await reserve(reservationAggregate, key, { type: 'Reserve', data: { key, owner: runId, field: 'runId', from: decision.from } });
      return null;
    } catch (error) {
      // Another run took it since it was read: decide again on the holder it has now.
      if (!(error instanceof DomainError && error.code === 'CONFLICT') || attempt === ATTEMPTS) throw error;
    }
  }
}
