import type { contract } from '@berth/shared/contract/index';
import { destinationAggregate } from '@berth/shared/domain/destination/destination';
import { mustBeEndpoint, mustNameBucket } from '@berth/shared/domain/destination/endpoint';
import { badRequest } from '@berth/shared/errors';
import { ObjectStorageError } from '@berth/shared/ports/object-storage';
import { all, change, one, removal, type GroupHandlers, type Handler } from './kit.ts';
import { retire } from './reservations.ts';

/** How the log's count of a destination's backups speaks of it. */
export const DESTINATION_USE = { label: 'Destination', field: 'destinationId', users: 'backup(s)' } as const;
import { resealed } from './secret-update.ts';

/** The field a refusal of the bucket points at, by the server's (or the network's) code. */
const FIELD_OF: Record<string, string> = {
  InvalidAccessKeyId: 'accessKey', SignatureDoesNotMatch: 'secretAccessKey', AccessDenied: 'accessKey',
  NoSuchBucket: 'bucket', InvalidBucketName: 'bucket', AuthorizationHeaderMalformed: 'region', PermanentRedirect: 'region',
};

/** Really reaches the bucket with the given fields: BAD_REQUEST with the server's reason when it can't. */
const testConnection: Handler<{ endpoint: string; region: string; bucket: string; accessKey: string; secretAccessKey: string }> =
  async (input, ctx) => {
    mustBeEndpoint(input.endpoint);
    mustNameBucket(input.bucket);
    try {
      await (await ctx.infra.objectStorage(input)).check();
    } catch (error) {
      if (!(error instanceof ObjectStorageError)) throw error;
      // "Could not list the bucket …" read after the field: "accessKey did not work: could not list …".
      throw badRequest(FIELD_OF[error.code] ?? 'endpoint', `did not work: ${error.message.charAt(0).toLowerCase()}${error.message.slice(1)}`);
    }
    return { ok: true, bucket: input.bucket };
  };

export const destination: GroupHandlers<typeof contract.destination> = {
  create: change(destinationAggregate, (input, ctx) => ({
    type: 'CreateDestination',
    data: { ...input, destinationId: ctx.newId(destinationAggregate), secretAccessKey: ctx.secrets.seal(input.secretAccessKey), createdAt: ctx.now },
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
    await retire(ctx, 'destination', input.destinationId, DESTINATION_USE,
      'names a destination that backups use: remove them or move them to another destination first');
    return { type: 'RemoveDestination', data: { destinationId: input.destinationId } };
  }),
  testConnection,
};
