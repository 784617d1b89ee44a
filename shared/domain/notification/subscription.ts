import type { Aggregate } from '../aggregate.ts';
import { exhaustive } from '../aggregate.ts';
import { mustExist, mustNotExist } from '../decisions.ts';
import type { Sealed } from '../../crypto/secrets.ts';

/** A webhook: the event types it wants, where to post them, and the key that signs each body. */
export interface Subscription {
  subscriptionId: string;
  url: string;
  eventTypes: string[];
  /** Sealed by the handler: the log never holds the signing secret in clear. */
  secret: Sealed;
  createdAt: string;
  /**
   * The log position of its SubscriptionCreated event, kept where a recorded event is folded (the
   * read model, a load): it is sent only events appended after it, even when the bus hands out older
   * ones again. Not part of the record anyone is shown.
   */
  createdAtPosition?: number;
}

/** What creating a subscription records: the position is the log's to give. */
type NewSubscription = Omit<Subscription, 'createdAtPosition'>;

export type SubscriptionCommand =
  | { type: 'CreateSubscription'; data: NewSubscription }
  | { type: 'RemoveSubscription'; data: { subscriptionId: string } };

export type SubscriptionEvent =
  | { type: 'SubscriptionCreated'; data: NewSubscription }
  | { type: 'SubscriptionRemoved'; data: { subscriptionId: string } };

const LABEL = 'Subscription';

/** Whether an event may still be posted to a subscription as it stands now, and if not, why. */
export type Standing = { readonly takes: true; readonly subscription: Subscription } | { readonly takes: false; readonly reason: string };

export function standingOf(subscription: Subscription | null, eventType: string): Standing {
  if (subscription === null) return { takes: false, reason: 'the subscription was removed' };
  if (!subscription.eventTypes.includes(eventType)) return { takes: false, reason: `the subscription no longer takes ${eventType}` };
  return { takes: true, subscription };
}

/** The position of an event folded as the log recorded it; none for one just decided. */
const positionOf = (event: SubscriptionEvent): number | undefined =>
  'position' in event && typeof event.position === 'number' ? event.position : undefined;

/** Whether `event` came after the subscription was created; one whose position is not known is taken (as before positions were kept). */
export const createdBefore = (subscription: Subscription, event: { readonly position: number }): boolean =>
  subscription.createdAtPosition === undefined || event.position > subscription.createdAtPosition;

export const subscriptionAggregate: Aggregate<Subscription, SubscriptionCommand, SubscriptionEvent> = {
  name: 'subscription',
  idField: 'subscriptionId',
  label: LABEL,
  hidden: ['createdAtPosition'],
  evolve(state, event) {
    switch (event.type) {
      case 'SubscriptionCreated': {
        const position = positionOf(event);
        return position === undefined ? { ...event.data } : { ...event.data, createdAtPosition: position };
      }
      case 'SubscriptionRemoved': return null;
      default: return exhaustive(event);
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'CreateSubscription':
        mustNotExist(state, LABEL, 'subscriptionId');
        return [{ type: 'SubscriptionCreated', data: command.data }];
      case 'RemoveSubscription':
        mustExist(state, 'subscriptionId', LABEL);
        return [{ type: 'SubscriptionRemoved', data: command.data }];
      default: return exhaustive(command);
    }
  },
};
