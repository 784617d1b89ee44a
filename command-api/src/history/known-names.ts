// The event types and aggregates the log can hold. A filter naming another can only ever answer
// nothing, and an empty history reads as "nothing happened": the history refuses it as the typo it
// is, as notification.create does. Typed against the aggregates, so it cannot drift from them.
import { aggregates } from '@berth/shared/domain/index';
import type { deliveryAggregate } from '@berth/shared/domain/notification/delivery';
import { isSendable, type EventTypeOf } from '@berth/shared/domain/notification/sendable';
import type { subscriptionAggregate } from '@berth/shared/domain/notification/subscription';
import { rebuildAggregate } from '@berth/shared/domain/rebuild/rebuild';
import { attemptSlotsAggregate } from '@berth/shared/domain/throttle/throttle';
import { splitStream } from '@berth/shared/events/event';
import { KEY_CHECK_STREAM, KEY_CHECK_WRITTEN } from '@berth/shared/runtime/key-check';

type Unsent = typeof subscriptionAggregate | typeof deliveryAggregate | typeof attemptSlotsAggregate | typeof rebuildAggregate;

/** The types no webhook is sent (every other is a sendable one). */
const UNSENT: Readonly<Record<EventTypeOf<Unsent>, true>> = {
  SubscriptionCreated: true, SubscriptionRemoved: true,
  DeliveryQueued: true, DeliveryAttempted: true, DeliverySucceeded: true, DeliveryFailed: true,
  AttemptStarted: true, AttemptSucceeded: true, ProjectionRebuildRequested: true,
};

const otherTypes: ReadonlySet<string> = new Set([...Object.keys(UNSENT), KEY_CHECK_WRITTEN]);
const aggregateNames: ReadonlySet<string> = new Set([
  ...[...aggregates, attemptSlotsAggregate, rebuildAggregate].map((aggregate) => aggregate.name),
  splitStream(KEY_CHECK_STREAM).aggregate,
]);

export const isEventType = (type: string): boolean => isSendable(type) || otherTypes.has(type);
export const isAggregateName = (name: string): boolean => aggregateNames.has(name);
