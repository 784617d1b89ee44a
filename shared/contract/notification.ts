// Webhook notifications (beyond the spec; admin only): subscriptions to event types, and the
// record of every delivery attempt.
import { Type } from '@sinclair/typebox';
import { SENDABLE_TYPES } from '../domain/notification/sendable.ts';
import { group, get, none, post } from './operation.ts';
import { Bool, Closed, MinStr, Nullable, Num, OneOf, Opt, Str } from './schema.ts';

const Subscription = Closed({
  subscriptionId: Str(), url: Str(), eventTypes: Type.Array(Str()),
  /** The HMAC-SHA256 key of the `x-berth-signature` header. */
  secret: Str(), createdAt: Str(),
});

const Delivery = Closed({
  deliveryId: Str(), subscriptionId: Str(), eventId: Str(), eventType: Str(),
  status: OneOf(['pending', 'delivered', 'failed'] as const), createdAt: Str(),
  attempts: Type.Array(Closed({ attempt: Num(), at: Str(), status: Nullable(Num()), ok: Bool(), reason: Nullable(Str()) })),
});

const subscriptionId = Closed({ subscriptionId: MinStr() });

/** Longer than any URL a browser or proxy passes on: only nonsense is refused. */
const URL_MAX = 2048;
/** Longer than any event type's name. */
const TYPE_MAX = 100;

export const notification = group('notification', {
  create: post(Closed({
    url: Type.String({ minLength: 1, maxLength: URL_MAX, description: 'an http(s) URL that receives a POST per event' }),
    // Which names are event types is checked by the handler, which names the one at fault.
    eventTypes: Type.Array(Type.String({ minLength: 1, maxLength: TYPE_MAX }), {
      minItems: 1, maxItems: SENDABLE_TYPES.length,
      description: 'event types to send (`DeploymentFailed`, ...): those of Berth\'s records, not those of the notifications themselves',
    }),
    secret: Opt(Type.String({ minLength: 16, description: 'the signing key; generated when left out' })),
  }), Subscription),
  one: get(subscriptionId, Subscription),
  all: get(none, Type.Array(Subscription)),
  remove: post(subscriptionId, Subscription),
  /** Every delivery to a subscription with its attempts, newest first. */
  deliveries: get(subscriptionId, Type.Array(Delivery)),
});
