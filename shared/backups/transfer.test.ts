// The two directions of a run end when either side gives up: an upload the bucket refuses stops the
// dump (which waits on its full pipe otherwise), and a restore tool that quits stops the download.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { openS3Storage } from '../adapters/s3/object-storage.ts';
import { bucketToRestore, dumpToBucket } from './transfer.ts';
import { dumpingExec, memoryStorage, quittingExec, testPlan } from './testing.ts';

const MiB = 1024 * 1024;
/** `count` incompressible half-MiB chunks: a dump bigger than what the pipes between hold. */
const dump = (count: number) => () => Array.from({ length: count }, () => randomBytes(MiB / 2));

/** Bounded: a transfer that waits for good fails its test instead of the run. */
const PROMPTLY = { timeout: 15_000 };

describe('a transfer that one side gives up', () => {
  let server: Server;
  let endpoint: string;
  before(async () => {
    // A bucket that refuses every request, as one with the wrong keys or no write permission does.
    server = createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        response.statusCode = 403;
        response.setHeader('Content-Type', 'application/xml');
        response.end('<?xml version="1.0"?><Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const refusing = () => openS3Storage({ endpoint, region: 'us-east-1', bucket: 'b', accessKey: 'AK', secretAccessKey: 'SK123456' });
  const key = 'nightly/2026-01-01T00:00:00.000Z.dump.gz';

  for (const [label, chunks] of [['a large dump (40 MiB)', 80], ['a small dump (4 MiB)', 8]] as const) {
    it(`fails promptly with the bucket's reason when the upload of ${label} is refused, and stops the dump`, PROMPTLY, async () => {
      const exec = dumpingExec(dump(chunks));
      await assert.rejects(dumpToBucket(testPlan(), exec, refusing(), key), /AccessDenied \(HTTP 403\)/);
      assert.equal(exec.calls, 1);
      assert.ok(exec.ended, 'the dump was stopped');
    });
  }

  it('still uploads a dump the bucket takes, with its size', PROMPTLY, async () => {
    const storage = memoryStorage();
    const transfer = await dumpToBucket(testPlan(), dumpingExec(dump(8)), storage, key);
    assert.ok(transfer.size > 4 * MiB);
    assert.deepEqual([...storage.keys], [key]);
  });

  it('fails with the restore tool\'s words when it quits before reading the whole dump, instead of waiting on the download', PROMPTLY, async () => {
    // Small in the bucket, large once unpacked: far more than the pipes hold.
    const packed = gzipSync(Buffer.alloc(64 * MiB));
    const storage = { ...memoryStorage(), get: async () => Readable.from([packed]) };
    const exec = quittingExec(MiB, 1, 'pg_restore: error: input file appears to be a text format dump');
    await assert.rejects(bucketToRestore(testPlan(), exec, storage, key, 'app'), /The restore exited with code 1: pg_restore: error: input file/);
  });
});
