import type { contract } from '@berth/shared/contract/index';
import { accountAggregate } from '@berth/shared/domain/account/account';
import { accountAnswer, accountView } from './accounts.ts';
import type { GroupHandlers } from './kit.ts';

export const user: GroupHandlers<typeof contract.user> = {
  all: async (_input, ctx) => (await ctx.list(accountAggregate)).map((account) => accountView(ctx, account)),
  byAuthId: async (input, ctx) => accountAnswer(ctx, input.authId, 'authId'),
  byUserId: async (input, ctx) => accountAnswer(ctx, input.userId, 'userId'),
};
