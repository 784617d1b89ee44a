// Every aggregate of Berth. Each one's stream folds into its read model (see projections).
import type { AnyAggregate } from './aggregate.ts';
import { accountAggregate } from './account/account.ts';
import { projectAggregate } from './project/project.ts';
import { reservationAggregate } from './reservation/reservation.ts';

/** A read-model lookup the queries need: documents of `collection` by `field`. */
export interface Lookup {
  readonly collection: string;
  readonly field: string;
}

export const aggregates: readonly AnyAggregate[] = [
  projectAggregate, reservationAggregate, accountAggregate,
];

export const lookups: readonly Lookup[] = [
  { collection: 'account', field: 'email' },
];
