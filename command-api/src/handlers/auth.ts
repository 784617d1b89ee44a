import type { contract } from '@berth/shared/contract/index';
import { accountAggregate } from '@berth/shared/domain/account/account';
import { reservationAggregate, reservationKey } from '@berth/shared/domain/reservation/reservation';
import { hashPassword, verifyPassword } from '@berth/shared/crypto/password';
import { conflict, unauthorized } from '@berth/shared/errors';
import { newId } from '@berth/shared/ids';
import type { Context } from '../context.ts';
import { ADMIN_KEY, retireSetupToken } from '../auth/setup-token.ts';
import { issueToken } from '../auth/tokens.ts';
import type { GroupHandlers } from './kit.ts';

// Compared against when the email is unknown, so a miss takes as long as a wrong password.
const DECOY_HASH = hashPassword(newId());

const normalEmail = (email: string) => email.trim().toLowerCase();

async function claim(ctx: Context, key: string, owner: string, field: string) {
  await ctx.execute(reservationAggregate, key, { type: 'Reserve', data: { key, owner, field } });
}

export const auth: GroupHandlers<typeof contract.auth> = {
  createAdmin: async (input, ctx) => {
    const id = newId();
    const email = normalEmail(input.email);
    const passwordHash = await hashPassword(input.password);
    await claim(ctx, ADMIN_KEY, id, 'admin').catch(() => { throw conflict('An admin already exists'); });
    await claim(ctx, reservationKey('email', email), id, 'email');
    const { after } = await ctx.execute(accountAggregate, id, {
      type: 'CreateAdmin',
      data: { id, email, rol: 'admin', image: '', is2FAEnabled: false, createdAt: ctx.now, passwordHash },
    });
    retireSetupToken(ctx.infra);
    return ctx.view(accountAggregate, after);
  },
  login: async (input, ctx) => {
    const [account] = await ctx.infra.readStore.find(accountAggregate.name, 'email', normalEmail(input.email));
    const hash = typeof account?.passwordHash === 'string' ? account.passwordHash : await DECOY_HASH;
    const valid = await verifyPassword(input.password, hash);
    if (!account || !valid) throw unauthorized('Invalid email or password');
    return { token: await issueToken(ctx.infra, { id: String(account.id), rol: account.rol === 'admin' ? 'admin' : 'user' }) };
  },
  get: async (_input, ctx) => ctx.one(accountAggregate, ctx.actor!.id, 'id'),
};
