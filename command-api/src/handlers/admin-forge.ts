// The forge app Berth acts as: saved (private key sealed, checked to be a key), asked about,
// removed; and the repositories and branches its installation can read, from the forge's API.
import { createPrivateKey } from 'node:crypto';
import type { contract } from '@berth/shared/contract/index';
import { FORGE_ID, forgeAggregate, forgeAppOf, type ForgeSettings } from '@berth/shared/domain/forge/forge';
import { DomainError, badRequest, conflict, notFound, unavailable } from '@berth/shared/errors';
import { ForgeError, type ForgeApp } from '@berth/shared/ports/forge';
import type { Context } from '../context.ts';
import type { GroupHandlers } from './kit.ts';
import { resealed } from './secret-update.ts';

async function configured(ctx: Context): Promise<ForgeApp> {
  const { state } = await ctx.load(forgeAggregate, FORGE_ID);
  if (!state) throw conflict('The forge is not configured on this Berth (admin.saveForgeApp)');
  return forgeAppOf(state, (sealed) => ctx.secrets.open(sealed));
}

/** Runs `use` with a fresh installation token; the forge's refusals become clear answers. */
async function withToken<T>(ctx: Context, use: (app: ForgeApp, token: string) => Promise<T>): Promise<T> {
  const app = await configured(ctx);
  const token = await ask(() => ctx.infra.forge.installationToken(app));
  return ask(() => use(app, token), true);
}

/**
 * The forge's answer; its refusal as a 409 with its reason, or a 404 naming `repo` where the
 * repository is asked for. A forge that failed (no answer, a 5xx, an answer its API never gives)
 * refused nothing: an outage, as any peer Berth cannot use right now.
 */
async function ask<T>(call: () => Promise<T>, namesRepository = false): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!(error instanceof ForgeError)) throw error;
    if (error.status === 404 && namesRepository) throw notFound('repo', 'Repository');
    if (error.status !== null && error.status >= 500) {
      throw unavailable(`The forge failed: ${error.message}`);
    }
    throw new DomainError('CONFLICT', `The forge refused: ${error.message}`);
  }
}

function mustBePrivateKey(pem: string): void {
  try { createPrivateKey(pem); } catch { throw badRequest('privateKey', 'must be the forge app\'s PEM private key'); }
}

type ForgeHandlers = Pick<GroupHandlers<typeof contract.admin>, 'saveForgeApp' | 'haveForgeConfigured' | 'cleanForgeApp' | 'getRepositories' | 'getBranches'>;

export const forgeAdmin: ForgeHandlers = {
  saveForgeApp: async (input, ctx) => {
    mustBePrivateKey(input.privateKey);
    const { state } = await ctx.load(forgeAggregate, FORGE_ID);
    const data: ForgeSettings = { ...input, forgeId: FORGE_ID, privateKey: resealed(ctx, state?.privateKey, input.privateKey), savedAt: ctx.now };
    const { after } = await ctx.execute(forgeAggregate, FORGE_ID, { type: 'SaveForgeApp', data });
    const saved = after ?? data;
    return { apiUrl: saved.apiUrl, appId: saved.appId, installationId: saved.installationId, savedAt: saved.savedAt };
  },
  haveForgeConfigured: async (_input, ctx) => (await ctx.load(forgeAggregate, FORGE_ID)).state !== null,
  cleanForgeApp: async (_input, ctx) => {
    await ctx.execute(forgeAggregate, FORGE_ID, { type: 'RemoveForgeApp', data: { forgeId: FORGE_ID } });
    return true;
  },
  getRepositories: async (_input, ctx) => withToken(ctx, (app, token) => ctx.infra.forge.repositories(app, token)),
  getBranches: async (input, ctx) => withToken(ctx, async (app, token) =>
    (await ctx.infra.forge.branches(app, token, input.owner, input.repo)).map((name) => ({ name }))),
};
