// A resource whose users go with it (a project's services; an application's ports, redirects and
// users): they are removed, each by its own removal, then the resource is retired in the log. One
// that started using it meanwhile refuses the retirement; the log names it, and the next round
// removes it too, so a removal and a concurrent creation can never both win.
import { DomainError } from '@berth/shared/errors';
import type { AnyAggregate } from '@berth/shared/domain/aggregate';
import type { UsageKind, UsageWords } from '@berth/shared/domain/usage/usage';
import type { Context } from '../context.ts';
import { retire, stopUsing, usersOf } from './reservations.ts';

/** A kind of record that goes with the resource it uses. */
export interface DependentKind {
  readonly aggregate: AnyAggregate;
  /** The removal its own delete operation makes. */
  readonly remove: (id: string, ctx: Context) => Promise<unknown>;
}

export interface Dependents {
  readonly kinds: readonly DependentKind[];
  /** The field of a dependent's record that names the resource. */
  readonly field: string;
  /** Refuses, before any of them is removed, when the caller may not remove them all. */
  readonly mayRemove?: (ids: readonly string[], ctx: Context) => void;
}

interface Dependent {
  readonly kind: DependentKind;
  readonly id: string;
}

// Dependents keep arriving while creations are under way: a few short waits let them land.
const ROUNDS = 20;
const pause = (round: number) => new Promise((resolve) => setTimeout(resolve, 10 * round));

/**
 * The dependents that exist now: those the read models list under the resource (records written
 * before uses were recorded, or not counted yet, have no other trace) and those the log counts,
 * each with its kind.
 */
async function dependentsOf(
  ctx: Context, usage: UsageKind, resourceId: string, { kinds, field }: Dependents, counted: readonly string[],
): Promise<Dependent[]> {
  const listed = new Map<string, DependentKind>();
  for (const kind of kinds) {
    for (const doc of await ctx.list(kind.aggregate, field, resourceId)) listed.set(String(doc[kind.aggregate.idField]), kind);
  }
  const found: Dependent[] = [];
  for (const id of new Set([...listed.keys(), ...counted])) {
    const listedKind = listed.get(id);
    const held = await heldBy(ctx, listedKind ? [listedKind] : kinds, id);
    // One in another resource is not this one's to take: moved out, its move lets go of this
    // resource after it is written; moving in, it is taken in a later round, once it is here.
    if (held?.state[field] === resourceId) found.push({ kind: held.kind, id });
    // Counted but gone: removed before it was counted (a record is counted once written), so its own removal could not let go.
    else if (!held && counted.includes(id)) await stopUsing(ctx, usage, resourceId, id);
  }
  return found;
}

/** The kind whose log holds a record of `id` now, with the record, read afresh (another process may have written it). */
async function heldBy(ctx: Context, kinds: readonly DependentKind[], id: string): Promise<{ kind: DependentKind; state: Record<string, unknown> } | null> {
  for (const kind of kinds) {
    ctx.forget(kind.aggregate, id);
    const { state } = await ctx.load(kind.aggregate, id);
    if (state !== null) return { kind, state: state as Record<string, unknown> };
  }
  return null;
}

const unlessNotFound = (error: unknown): void => {
  if (!(error instanceof DomainError && error.code === 'NOT_FOUND')) throw error;
};

/** Removes the resource's dependents, then retires it; CONFLICT naming its field when they keep coming. */
export async function retireWithDependents(
  ctx: Context, kind: UsageKind, id: string, words: UsageWords, why: string, dependents: Dependents,
): Promise<void> {
  for (let round = 1; ; round++) {
    const found = await dependentsOf(ctx, kind, id, dependents, await usersOf(ctx, kind, id));
    dependents.mayRemove?.(found.map((dependent) => dependent.id), ctx);
    // One by one, so a failure part-way leaves fewer dependents, each whole. One a removal made at the
    // same moment took is gone already: the answer is the resource's own, not the dependent's NOT_FOUND.
    for (const dependent of found) await dependent.kind.remove(dependent.id, ctx).catch(unlessNotFound);
    try {
      return await retire(ctx, kind, id, words, why);
    } catch (error) {
      if (round === ROUNDS || !(error instanceof DomainError && error.code === 'CONFLICT')) throw error;
      await pause(round);
    }
  }
}
