import type { contract } from '@berth/shared/contract/index';
import { backupAggregate } from '@berth/shared/domain/backup/backup';
import { destinationAggregate } from '@berth/shared/domain/destination/destination';
import { conflict } from '@berth/shared/errors';
import { newId } from '@berth/shared/ids';
import { all, change, mustBeUnused, one, pending, removal, type GroupHandlers } from './kit.ts';
import { resealed } from './secret-update.ts';

export const destination: GroupHandlers<typeof contract.destination> = {
  create: change(destinationAggregate, (input, ctx) => ({
    type: 'CreateDestination',
    data: { ...input, destinationId: newId(), secretAccessKey: ctx.secrets.seal(input.secretAccessKey), createdAt: ctx.now },
  })),
  update: change(destinationAggregate, async (input, ctx) => {
    const current = await ctx.mustLoad(destinationAggregate, input.destinationId, 'destinationId');
    return {
      type: 'UpdateDestination',
      data: { ...input, secretAccessKey: resealed(ctx, current.secretAccessKey, input.secretAccessKey) },
    };
  }),
  one: one(destinationAggregate),
  all: all(destinationAggregate),
  remove: removal(destinationAggregate, async (input, ctx) => {
    await ctx.mustLoad(destinationAggregate, input.destinationId, 'destinationId');
    // A backup keeps uploading to its destination: removing it would leave backups that can only fail.
    await mustBeUnused(ctx, backupAggregate, 'destinationId', input.destinationId,
      'Destination is used by backups; remove them or move them to another destination first');
    return { type: 'RemoveDestination', data: { destinationId: input.destinationId } };
  }),
  testConnection: pending('object storage'),
};
