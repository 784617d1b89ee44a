// The S3 adapter of ObjectStorage, on the standard client. Path-style addressing (self-hosted
// S3 servers rarely have per-bucket host names), checksums only where the API requires them (a
// trailing checksum makes some servers store the chunk framing), uploads streamed in parts.
import { PassThrough, type Readable } from 'node:stream';
import {
  DeleteObjectCommand, GetObjectCommand, ListObjectsV2Command, S3Client, type ListObjectsV2CommandOutput,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { ObjectStorageError, type BucketAddress, type ObjectStorage, type StoredObject } from '../../ports/object-storage.ts';
import { endpointUrlOf } from '../../domain/destination/endpoint.ts';
import { describeFailure } from './failure.ts';

const PART_SIZE = 8 * 1024 * 1024;
/**
 * A server that takes the connection and never answers: a request (a part's upload, or until the
 * answer's headers) fails after REQUEST_MS, and a download that stalls after SOCKET_IDLE_MS; the
 * client only warns of the first unless told to throw, and a run would hang for good.
 */
const REQUEST_MS = 60_000;
const SOCKET_IDLE_MS = 60_000;
/** A connection check answers a person waiting for it. */
const CHECK_MS = 10_000;
/** Parts in flight at once: bounds an upload's memory to about PART_SIZE × (QUEUE + 1). */
const QUEUE = 2;

/** The endpoint as a URL; a bare host name means https, as the S3 consoles show it. */
export function endpointUrl(endpoint: string): string {
  const url = endpointUrlOf(endpoint);
  if (url === null) throw new ObjectStorageError(`endpoint "${endpoint}" is not a URL`, 'InvalidEndpoint');
  return url;
}

export function openS3Storage(address: BucketAddress): ObjectStorage {
  const client = new S3Client({
    endpoint: endpointUrl(address.endpoint),
    region: address.region || 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: address.accessKey, secretAccessKey: address.secretAccessKey },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 2,
    requestHandler: { connectionTimeout: 5_000, requestTimeout: REQUEST_MS, throwOnRequestTimeout: true, socketTimeout: SOCKET_IDLE_MS },
  });
  const Bucket = address.bucket;
  /** Runs one call, turning any failure into an ObjectStorageError with its reason. */
  const attempt = async <T>(what: string, call: () => Promise<T>): Promise<T> => {
    try {
      return await call();
    } catch (error) {
      throw describeFailure(error, what, address);
    }
  };

  return {
    async check(signal) {
      // A listing that matches nothing: authenticated, cheap, and its refusals carry a reason.
      const probe = new ListObjectsV2Command({ Bucket, Prefix: '.berth-connection-check/' });
      const bound = AbortSignal.timeout(CHECK_MS);
      const listing = await attempt('reach the bucket', () => client.send(probe, { abortSignal: signal ? AbortSignal.any([signal, bound]) : bound }))
        .catch((error: unknown) => {
          if (!bound.aborted || signal?.aborted) throw error;
          throw new ObjectStorageError(`Could not reach the bucket ${Bucket}: ${endpointUrl(address.endpoint)} did not answer within ${CHECK_MS / 1000} s`, 'Timeout');
        });
      // The client reads any 200 as a listing, an empty one when the body is a web page or
      // nothing: only an S3 server's names the bucket it listed.
      if (listing.Name !== Bucket) {
        throw new ObjectStorageError(`Could not reach the bucket ${Bucket}: ${endpointUrl(address.endpoint)} answered, but not as an S3 server listing it`, 'NotS3');
      }
    },

    async put(key, body, signal) {
      let size = 0;
      const counted = new PassThrough();
      counted.on('data', (chunk: Buffer) => { size += chunk.length; });
      body.on('error', (error) => counted.destroy(error));
      body.pipe(counted);
      const upload = new Upload({ client, params: { Bucket, Key: key, Body: counted }, partSize: PART_SIZE, queueSize: QUEUE });
      const abort = () => void upload.abort();
      signal?.addEventListener('abort', abort, { once: true });
      try {
        await attempt(`upload ${key}`, () => upload.done());
      } finally {
        signal?.removeEventListener('abort', abort);
      }
      return { size };
    },

    async get(key, signal) {
      const answer = await attempt(`read ${key}`, () => client.send(new GetObjectCommand({ Bucket, Key: key }), { abortSignal: signal }));
      return answer.Body as Readable;
    },

    async list(prefix) {
      const objects: StoredObject[] = [];
      let token: string | undefined;
      do {
        const page: ListObjectsV2CommandOutput = await attempt('list the bucket', () =>
          client.send(new ListObjectsV2Command({ Bucket, Prefix: prefix, ContinuationToken: token })));
        for (const item of page.Contents ?? []) {
          objects.push({ key: item.Key ?? '', size: item.Size ?? 0, lastModified: (item.LastModified ?? new Date(0)).toISOString() });
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      // Keys are `<prefix>/<ISO timestamp>…`: their order is the order they were written in.
      return objects.sort((a, b) => a.key.localeCompare(b.key));
    },

    async remove(keys) {
      // One by one: few keys at a time, and multi-delete needs a checksum some servers reject.
      for (const Key of keys) await attempt(`remove ${Key}`, () => client.send(new DeleteObjectCommand({ Bucket, Key })));
    },
  };
}
