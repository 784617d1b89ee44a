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
}

export type SubscriptionCommand =
  | { type: 'CreateSubscription'; data: Subscription }
  | { type: 'RemoveSubscription'; data: { subscriptionId: string } };

export type SubscriptionEvent =
  | { type: 'SubscriptionCreated'; data: Subscription }
  | { type: 'SubscriptionRemoved'; data: { subscriptionId: string } };

const LABEL = 'Subscription';

/** Whether an event may still be posted to a subscription as it stands now, and if not, why. */
export type Standing = { readonly takes: true; readonly subscription: Subscription } | { readonly takes: false; readonly reason: string };

export function standingOf(subscription: Subscription | null, eventType: string): Standing {
  if (subscription === null) return { takes: false, reason: 'the subscription was removed' };
  if (!subscription.eventTypes.includes(eventType)) return { takes: false, reason: `the subscription no longer takes ${eventType}` };
  return { takes: true, subscription };
}

export const subscriptionAggregate: Aggregate<Subscription, SubscriptionCommand, SubscriptionEvent> = {
  name: 'subscription',
  idField: 'subscriptionId',
  label: LABEL,
  evolve(state, event) {
    switch (event.type) {
      case 'SubscriptionCreated': return { ...event.data };
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
