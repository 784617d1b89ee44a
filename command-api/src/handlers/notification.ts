import { randomBytes } from 'node:crypto';
import type { contract } from '@berth/shared/contract/index';
import { deliveryAggregate } from '@berth/shared/domain/notification/delivery';
import { isSendable } from '@berth/shared/domain/notification/sendable';
import { subscriptionAggregate } from '@berth/shared/domain/notification/subscription';
import { badRequest } from '@berth/shared/errors';
import { all, change, one, removal, type GroupHandlers } from './kit.ts';

function mustBeWebUrl(url: string): string {
  let parsed: URL;
  try { parsed = new URL(url); } catch { throw badRequest('url', 'must be an http or https URL'); }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw badRequest('url', 'must be an http or https URL');
  // fetch refuses such URLs, so nothing could be delivered, and the password would show wherever the URL does.
  if (parsed.username !== '' || parsed.password !== '') throw badRequest('url', 'must not carry a user name or password; sign with the secret instead');
  return parsed.href;
}

/**
 * The types as given, once each, when every one is an event type notifications send: a typo, or a
 * type of the notifications' own (never sent), would make a subscription that silently never fires.
 */
function mustBeSendable(eventTypes: readonly string[]): string[] {
  const unique = [...new Set(eventTypes)];
  const unknown = unique.filter((type) => !isSendable(type));
  if (unknown.length > 0) {
    throw badRequest('eventTypes', `names ${unknown.map((type) => JSON.stringify(type)).join(', ')}, which ${unknown.length === 1 ? 'is not an event type' : 'are not event types'} notifications send (those of notifications and deliveries are never sent)`);
  }
  return unique;
}

export const notification: GroupHandlers<typeof contract.notification> = {
  create: change(subscriptionAggregate, (input, ctx) => ({
    type: 'CreateSubscription',
    data: {
      subscriptionId: ctx.newId(subscriptionAggregate), url: mustBeWebUrl(input.url), eventTypes: mustBeSendable(input.eventTypes),
      secret: ctx.secrets.seal(input.secret ?? randomBytes(24).toString('base64url')), createdAt: ctx.now,
    },
  })),
  one: one(subscriptionAggregate),
  all: all(subscriptionAggregate),
  remove: removal(subscriptionAggregate, (input) => ({ type: 'RemoveSubscription', data: input })),
  deliveries: async ({ subscriptionId }, ctx) => {
    await ctx.mustLoad(subscriptionAggregate, subscriptionId, 'subscriptionId');
    return ctx.list(deliveryAggregate, 'subscriptionId', subscriptionId);
  },
};
