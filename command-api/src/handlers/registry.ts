import type { contract } from '@berth/shared/contract/index';
import { accountAggregate } from '@berth/shared/domain/account/account';
import { registryAggregate, type RegistryType } from '@berth/shared/domain/registry/registry';
import { DEFAULT_REGISTRY, mustFormImageNames, registryHostOf } from '@berth/shared/domain/registry/registry-url';
import { badRequest, unauthorized } from '@berth/shared/errors';
import { EngineError } from '@berth/shared/ports/container-engine';
import { all, change, one, removal, type GroupHandlers, type Handler } from './kit.ts';
import { retire, usersOf } from './reservations.ts';
import { applicationAggregate } from '@berth/shared/domain/application/application';
import { NAMED_USERS, type UsageWords } from '@berth/shared/domain/usage/usage';
import type { Context } from '../context.ts';

/** How the log's count of a registry's applications speaks of it. */
export const REGISTRY_USE = { label: 'Registry', field: 'registryId', users: 'application(s)' } as const;
import { resealed } from './secret-update.ts';
import { enableSelfHostedRegistry, removeSelfHostedRegistry, servesRegistry, updateSelfHostedRegistry } from './self-hosted-registry.ts';
import type { InputOf } from '@berth/shared/contract/operation';
import { mustKeepCreatedAt } from './created-at.ts';



/**
 * The words of a registry's removal with the appNames of the applications that use it (the first
 * few: the refusal names those and counts the rest), read here since the usage stream holds ids.
 */
async function registryUse(ctx: Context, registryId: string): Promise<UsageWords> {
  const users = (await usersOf(ctx, 'registry', registryId)).slice(0, NAMED_USERS);
  const docs = await Promise.all(users.map((id) => ctx.infra.readStore.get(applicationAggregate.name, id)));
  const names = Object.fromEntries(users.flatMap((id, i) => {
    const appName = docs[i]?.appName;
    return typeof appName === 'string' ? [[id, appName]] : [];
  }));
  return { ...REGISTRY_USE, names };
}

/** Logs in to the registry through the engine: BAD_REQUEST with the registry's reason when it refuses. */
const testRegistry: Handler<{ registryUrl: string; username: string; password: string; imagePrefix?: string | null }> = async (input, ctx) => {
  mustFormImageNames(input.registryUrl, input.imagePrefix);
  try {
    await ctx.infra.engine.checkAuth({
      username: input.username, password: input.password, serveraddress: registryHostOf(input.registryUrl) || DEFAULT_REGISTRY,
    });
  } catch (error) {
    if (!(error instanceof EngineError)) throw error;
    // A refused login names the credentials; anything else (unreachable, not a registry) the URL.
    if (/unauthori[sz]ed|401|denied|incorrect/i.test(error.message)) throw badRequest('password', `was refused by the registry: ${error.message}`);
    throw badRequest('registryUrl', `names no registry Berth could reach: ${error.message}`);
  }
  return true;
};

const create = change(registryAggregate, (input: InputOf<typeof contract.registry.create> & { registryId?: string }, ctx) => {
  if (!ctx.actor) throw unauthorized();
  return {
    type: 'CreateRegistry',
    data: {
      ...input, registryId: input.registryId ?? ctx.newId(registryAggregate), password: ctx.secrets.seal(input.password),
      registryType: input.registryType as RegistryType, adminId: ctx.actor.id, createdAt: ctx.now,
    },
  };
});

const updateRecord = change(registryAggregate, async (input: InputOf<typeof contract.registry.update>, ctx) => {
  const current = await ctx.mustLoad(registryAggregate, input.registryId, 'registryId');
  const { createdAt: _createdAt, ...fields } = input;
  return {
    type: 'UpdateRegistry',
    data: {
      ...fields,
      ...(input.password !== undefined && { password: resealed(ctx, current.password, input.password) }),
    },
  };
});

export const registry: GroupHandlers<typeof contract.registry> = {
  create,
  update: async (input, ctx) => {
    const current = await ctx.mustLoad(registryAggregate, input.registryId, 'registryId');
    // Refused before the registry Berth runs is touched.
    if (input.adminId !== undefined) {
      const account = await ctx.mustLoad(accountAggregate, input.adminId, 'adminId');
      // A registry's admin is an admin: the spec's field name says so, and a user may not hold an admin's login.
      if (account.rol !== 'admin') throw badRequest('adminId', 'must name an admin account');
    }
    mustKeepCreatedAt(input.createdAt, current.createdAt);
    const record = () => updateRecord(input, ctx);
    return await servesRegistry(ctx, current) ? updateSelfHostedRegistry(ctx, current, input, record) : record();
  },
  one: one(registryAggregate),
  all: all(registryAggregate),
  remove: async (input, ctx) => {
    const registry = await ctx.mustLoad(registryAggregate, input.registryId, 'registryId');
    // Only the record the service runs for takes it along: one created typed selfHosted runs nothing.
    const serves = await servesRegistry(ctx, registry);
    const removed = await removal(registryAggregate, async () => {
      // An application pushes its images to its registry and nodes pull from it: it must be unset first.
      await retire(ctx, 'registry', input.registryId, await registryUse(ctx, input.registryId),
        'names a registry that applications use: set another registry on them (or none) first');
      return { type: 'RemoveRegistry', data: { registryId: input.registryId } };
    })(input, ctx);
    if (serves) await removeSelfHostedRegistry(ctx, registry);
    return removed;
  },
  testRegistry,
  enableSelfHostedRegistry: async (input, ctx) => {
    const registryId = ctx.newId(registryAggregate);
    return enableSelfHostedRegistry(ctx, input, registryId, () =>
      create({ ...input, registryId, registryName: 'Self-hosted registry', registryType: 'selfHosted', imagePrefix: null }, ctx));
  },
};
