import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { openS3Storage } from '@berth/shared/adapters/s3/object-storage';
import { ObjectStorageError } from '@berth/shared/ports/object-storage';
import { startS3, type TestS3 } from '../support/s3.ts';

describe('S3 object storage on a real S3-protocol server', () => {
  let s3: TestS3;
  before(async () => { s3 = await startS3(['backups']); });
  after(() => s3.stop());

  it('streams an object of several parts up and reads back exactly the same bytes', async () => {
    const storage = openS3Storage(s3.destination('backups'));
    const bytes = randomBytes(17 * 1024 * 1024 + 123);
    // Chunks of 64 KiB, as a dump arrives: the adapter never sees the whole body at once.
    const chunks = function* () { for (let at = 0; at < bytes.length; at += 65536) yield bytes.subarray(at, at + 65536); };
    const { size } = await storage.put('big/one.bin.gz', Readable.from(chunks()));
    assert.equal(size, bytes.length);
    const back = await buffer(await storage.get('big/one.bin.gz'));
    assert.ok(back.equals(bytes), 'the object read back is the object written, with no chunk framing');
  });

  it('lists objects under a prefix in key order and removes the ones asked for', async () => {
    const storage = openS3Storage(s3.destination('backups'));
    for (const key of ['p/2026-01-02.gz', 'p/2026-01-01.gz', 'p/2026-01-03.gz', 'other/x.gz']) {
      await storage.put(key, Readable.from([Buffer.from(key)]));
    }
    assert.deepEqual((await storage.list('p/')).map((o) => o.key), ['p/2026-01-01.gz', 'p/2026-01-02.gz', 'p/2026-01-03.gz']);
    await storage.remove(['p/2026-01-01.gz']);
    assert.deepEqual((await storage.list('p/')).map((o) => o.key), ['p/2026-01-02.gz', 'p/2026-01-03.gz']);
    assert.equal((await buffer(await storage.get('p/2026-01-03.gz'))).toString(), 'p/2026-01-03.gz');
  });

  it('reaches the bucket with the right keys', async () => {
    await openS3Storage(s3.destination('backups')).check();
  });

  it('is refused with a wrong secret key, saying the signature does not match', async () => {
    const storage = openS3Storage({ ...s3.destination('backups'), secretAccessKey: 'not-the-secret' });
    await assert.rejects(storage.check(), (error: unknown) =>
      error instanceof ObjectStorageError && /SignatureDoesNotMatch/.test(error.message) && !error.message.includes('not-the-secret'));
    await assert.rejects(storage.put('x.gz', Readable.from([Buffer.from('x')])), /SignatureDoesNotMatch/);
  });

  it('is refused with an unknown access key, and for a bucket that does not exist', async () => {
    await assert.rejects(openS3Storage({ ...s3.destination('backups'), accessKey: 'NOBODY' }).check(), /InvalidAccessKeyId/);
    await assert.rejects(openS3Storage(s3.destination('no-such-bucket')).check(), /NoSuchBucket/);
  });

  it('says plainly when the endpoint cannot be reached or is not a URL', async () => {
    await assert.rejects(openS3Storage({ ...s3.destination('backups'), endpoint: 'http://127.0.0.1:1' }).check(), /connection was refused/);
    assert.throws(() => openS3Storage({ ...s3.destination('backups'), endpoint: 'http://exa mple' }), /not a URL/);
  });

  it('is refused by an endpoint that answers 200 but is not an S3 server (a web page, an empty body)', async () => {
    for (const [type, body] of [['text/html', '<!doctype html><html><body>Welcome</body></html>'], ['text/plain', '']]) {
      const server = createServer((request, response) => { request.resume(); response.setHeader('content-type', type!); response.end(body); });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      try {
        await assert.rejects(openS3Storage({ ...s3.destination('backups'), endpoint }).check(),
          (error: unknown) => error instanceof ObjectStorageError && error.code === 'NotS3' && /not as an S3 server/.test(error.message));
      } finally {
        server.close();
      }
    }
  });
});
