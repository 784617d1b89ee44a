import type { contract } from '@berth/shared/contract/index';
import type { GroupHandlers } from './kit.ts';
import { consumerLags } from '../observability/lag.ts';

export const projections: GroupHandlers<typeof contract.projections> = {
  status: async (_input, ctx) => consumerLags(ctx.infra),
};
