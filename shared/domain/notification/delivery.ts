import type { Aggregate } from '../aggregate.ts';
import { exhaustive } from '../aggregate.ts';

/** One try at posting an event to a subscriber. */
export interface Attempt {
  attempt: number;
  at: string;
  /** The receiver's HTTP status; null when it never answered. */
  status: number | null;
  ok: boolean;
  /** Why it failed: the status, a timeout, a refused connection. */
  reason: string | null;
}

/**
 * One event sent to one subscription: its id is `<subscriptionId>.<eventId>`, so each pair is sent once.
 * `pending` from the moment it is queued (no attempt yet) until it is delivered or fails for good.
 */
export interface Delivery {
  deliveryId: string;
  subscriptionId: string;
  eventId: string;
  eventType: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: Attempt[];
  createdAt: string;
}

/** What names a delivery: the subscription, and the event it posts. */
type DeliveryKey = Omit<Delivery, 'status' | 'attempts' | 'createdAt'>;

export type DeliveryCommand =
  /** Records that the event is due to the subscription, before any attempt: the sending happens apart, and a restart finds it. */
  | { type: 'QueueDelivery'; data: DeliveryKey & { at: string } }
  | { type: 'RecordAttempt'; data: DeliveryKey & { attempt: Attempt; last: boolean } }
  /** Stops the retries before the next attempt: the subscription went away or changed its mind. */
  | { type: 'EndDelivery'; data: { deliveryId: string; reason: string } };

export type DeliveryEvent =
  | { type: 'DeliveryQueued'; data: DeliveryKey & { at: string } }
  | { type: 'DeliveryAttempted'; data: DeliveryKey & { attempt: Attempt } }
  | { type: 'DeliverySucceeded'; data: { deliveryId: string } }
  | { type: 'DeliveryFailed'; data: { deliveryId: string; reason: string } };

export const deliveryAggregate: Aggregate<Delivery, DeliveryCommand, DeliveryEvent> = {
  name: 'delivery',
  idField: 'deliveryId',
  label: 'Delivery',
  evolve(state, event) {
    switch (event.type) {
      case 'DeliveryQueued': {
        const { at, ...delivery } = event.data;
        return state ?? { ...delivery, status: 'pending', attempts: [], createdAt: at };
      }
      case 'DeliveryAttempted': {
        const { attempt, ...delivery } = event.data;
        // Deliveries of older logs have no queued event: their first attempt starts their record.
        const base = state ?? { ...delivery, status: 'pending' as const, attempts: [], createdAt: attempt.at };
        return { ...base, attempts: [...base.attempts, attempt] };
      }
      case 'DeliverySucceeded': return state && { ...state, status: 'delivered' };
      case 'DeliveryFailed': return state && { ...state, status: 'failed' };
      default: return exhaustive(event);
    }
  },
  decide(command, state) {
    switch (command.type) {
      // Queued once: the event handed out again (a redelivery, a restart) appends nothing.
      case 'QueueDelivery': return state ? [] : [{ type: 'DeliveryQueued', data: command.data }];
      case 'RecordAttempt': {
        // A delivery that has ended takes no more attempts (a redelivered event changes nothing).
        if (state && state.status !== 'pending') return [];
        const { last, ...data } = command.data;
        // An attempt already recorded (made again after a crash, or by a second process) is recorded once.
        if (state && state.attempts.some((recorded) => recorded.attempt === data.attempt.attempt)) return [];
        const attempted = { type: 'DeliveryAttempted' as const, data };
        if (data.attempt.ok) return [attempted, { type: 'DeliverySucceeded', data: { deliveryId: data.deliveryId } }];
        if (last) return [attempted, { type: 'DeliveryFailed', data: { deliveryId: data.deliveryId, reason: data.attempt.reason ?? 'failed' } }];
        return [attempted];
      }
      // Only a delivery still queued or retrying ends; one never queued has no record to end.
      case 'EndDelivery': return state?.status === 'pending' ? [{ type: 'DeliveryFailed', data: command.data }] : [];
      default: return exhaustive(command);
    }
  },
};
