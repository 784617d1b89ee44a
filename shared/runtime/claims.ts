// Unique names claimed in the log, as the API and the reactors both claim them: through the
// reservation decider, by whatever runs its commands where they are (a request's context, a
// reactor's report). Claimed one by one, so that a refusal lets go of the ones just taken.
import { DomainError } from '../errors.ts';
import { reservationAggregate, reservationKey, type ReservationCommand } from '../domain/reservation/reservation.ts';

export type ReservationScope = Parameters<typeof reservationKey>[0];
/** Runs a reservation command on the reservation of `key`: where it appended (0 when it changed nothing). */
export type RunReservation = (aggregate: typeof reservationAggregate, key: string, command: ReservationCommand) => Promise<{ readonly position: number }>;

/** Lets go of each of `names` that `owner` holds. */
export async function releaseEach(run: RunReservation, scope: ReservationScope, names: readonly string[], owner: string): Promise<void> {
  await Promise.all(names.map((name) => {
    const key = reservationKey(scope, name);
    return run(reservationAggregate, key, { type: 'Release', data: { key, owner } });
  }));
}

/** The decider's refusal of a name another holds (naming `field`), not a stream too busy to decide. */
const isRefusal = (error: unknown, field: string) =>
  error instanceof DomainError && error.code === 'CONFLICT' && error.issues[0]?.path === field;

/**
 * Claims each of `names` for `owner` (CONFLICT naming `field` when another holds one); on a
 * refusal, lets go of the ones it took and throws what `refused` makes of it (the refusal itself by default);
 * any other failure is thrown as it is.
 */
export async function claimEach(
  run: RunReservation, scope: ReservationScope, names: readonly string[], owner: string,
  field: string = scope, refused: (name: string, error: unknown) => unknown = (_name, error) => error,
): Promise<void> {
  const taken: string[] = [];
  for (const name of names) {
    const key = reservationKey(scope, name);
    let position: number;
    try {
      ({ position } = await run(reservationAggregate, key, { type: 'Reserve', data: { key, owner, field } }));
    } catch (error) {
      await releaseEach(run, scope, taken, owner);
      // Only a refusal (another owner holds the name) is `refused`'s to word: an outage stays itself.
      throw isRefusal(error, field) ? refused(name, error) : error;
    }
    // A name the owner held already (the same request sent twice) is not this call's to let go.
    if (position !== 0) taken.push(name);
  }
}

/** Claims each of `names` that nobody holds for `owner`; one another holds stays theirs. */
export async function claimEachFree(run: RunReservation, scope: ReservationScope, names: readonly string[], owner: string): Promise<void> {
  for (const name of names) {
    const key = reservationKey(scope, name);
    await run(reservationAggregate, key, { type: 'Reserve', data: { key, owner, field: scope } }).catch((error: unknown) => {
      if (!isRefusal(error, scope)) throw error;
    });
  }
}
