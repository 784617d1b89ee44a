import type { contract } from '@berth/shared/contract/index';
import { accountAggregate } from '@berth/shared/domain/account/account';
import { registryAggregate, type RegistryType } from '@berth/shared/domain/registry/registry';
import { mustBeRegistryUrl } from '@berth/shared/domain/registry/registry-url';
import { badRequest, conflict, unauthorized } from '@berth/shared/errors';
import { newId } from '@berth/shared/ids';
import { all, change, one, pending, removal, type GroupHandlers, type Handler } from './kit.ts';
import { retire } from './reservations.ts';

/** How the log's count of a registry's applications speaks of it. */
export const REGISTRY_USE = { label: 'Registry', field: 'registryId', users: 'application(s)' } as const;
import { resealed } from './secret-update.ts';

/** A createdAt given on update, as every createdAt is kept (ISO-8601 UTC), so lists still sort by it. */
function isoInstant(value: string): string {
  const time = Date.parse(value);
  if (Number.isNaN(time)) throw badRequest('createdAt', 'must be an ISO-8601 date-time');
  return new Date(time).toISOString();
}

/** Checks what can be checked without reaching the registry, then says the reaching is not built yet. */
const pendingAccess = <I extends { registryUrl: string }>(): Handler<I> => async (input, ctx) => {
  mustBeRegistryUrl(input.registryUrl);
  return pending('registry access')(input, ctx);
};

export const registry: GroupHandlers<typeof contract.registry> = {
  create: change(registryAggregate, (input, ctx) => {
    if (!ctx.actor) throw unauthorized();
    return {
      type: 'CreateRegistry',
      data: {
        ...input, registryId: newId(), password: ctx.secrets.seal(input.password),
        registryType: input.registryType as RegistryType, adminId: ctx.actor.id, createdAt: ctx.now,
      },
    };
  }),
  update: change(registryAggregate, async (input, ctx) => {
    const current = await ctx.mustLoad(registryAggregate, input.registryId, 'registryId');
    if (input.adminId !== undefined) await ctx.mustLoad(accountAggregate, input.adminId, 'adminId');
    return {
      type: 'UpdateRegistry',
      data: {
        ...input,
        ...(input.password !== undefined && { password: resealed(ctx, current.password, input.password) }),
        ...(input.createdAt !== undefined && { createdAt: isoInstant(input.createdAt) }),
      },
    };
  }),
  one: one(registryAggregate),
  all: all(registryAggregate),
  remove: removal(registryAggregate, async (input, ctx) => {
    await ctx.mustLoad(registryAggregate, input.registryId, 'registryId');
    // An application pushes its images to its registry and nodes pull from it: it must be unset first.
    await retire(ctx, 'registry', input.registryId, REGISTRY_USE, 'Registry is used by applications; set another registry on them first');
    return { type: 'RemoveRegistry', data: { registryId: input.registryId } };
  }),
  testRegistry: pendingAccess(),
  enableSelfHostedRegistry: pendingAccess(),
};
