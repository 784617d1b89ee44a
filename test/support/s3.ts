// A real S3-protocol server for the tests: s3rver on a temporary folder, behind a proxy that
// checks version-4 signatures (s3rver 3.7 accepts any secret), so wrong keys are really refused.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';

/** s3rver knows exactly one key pair. */
export const S3_KEYS = { accessKey: 'S3RVER', secretAccessKey: 'S3RVER' } as const;

export interface TestS3 {
  /** `http://127.0.0.1:<port>`, the signature-checking front. */
  readonly endpoint: string;
  /** A destination's fields for `bucket`, with the right keys. */
  destination(bucket: string): { endpoint: string; region: string; bucket: string; accessKey: string; secretAccessKey: string };
  stop(): Promise<void>;
}

const hmac = (key: Buffer | string, text: string) => createHmac('sha256', key).update(text).digest();
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const rfc3986 = (text: string) => encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** The signature the request should carry if it was signed with `secret`; null when it is not a v4 header signature. */
function expectedSignature(req: IncomingMessage, secret: string): { given: string; expected: string } | null {
  const match = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/([^,]+), ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]+)$/.exec(req.headers.authorization ?? '');
  if (!match) return null;
  const [, , scope, signedHeaders, given] = match as unknown as [string, string, string, string, string];
  const [path = '/', query = ''] = (req.url ?? '/').split('?', 2);
  const canonicalQuery = query.split('&').filter(Boolean)
    .map((pair) => pair.split('=', 2).map((part) => rfc3986(decodeURIComponent(part.replace(/\+/g, ' ')))))
    .sort(([a = '', av = ''], [b = '', bv = '']) => (a === b ? av.localeCompare(bv) : a < b ? -1 : 1))
    .map(([key = '', value = '']) => `${key}=${value}`).join('&');
  const headers = signedHeaders.split(';').map((name) => `${name}:${String(req.headers[name] ?? '').trim().replace(/\s+/g, ' ')}\n`).join('');
  const canonical = [req.method, path, canonicalQuery, headers, signedHeaders, req.headers['x-amz-content-sha256'] ?? 'UNSIGNED-PAYLOAD'].join('\n');
  const date = String(req.headers['x-amz-date'] ?? '');
  const [day = '', region = '', service = ''] = scope.split('/');
  const key = hmac(hmac(hmac(hmac(`AWS4${secret}`, day), region), service), 'aws4_request');
  const expected = hmac(key, ['AWS4-HMAC-SHA256', date, scope, sha256(canonical)].join('\n')).toString('hex');
  return { given, expected };
}

function refuse(res: ServerResponse, code: string, message: string): void {
  res.writeHead(403, { 'content-type': 'application/xml' });
  res.end(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${message}</Message></Error>`);
}

export async function startS3(buckets: readonly string[] = ['backups']): Promise<TestS3> {
  const directory = mkdtempSync(join(tmpdir(), 'berth-s3-'));
  const s3rver = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory, configureBuckets: buckets.map((name) => ({ name })) });
  const backend = (await s3rver.run()) as AddressInfo;
  const front: Server = createServer((req, res) => {
    const signature = expectedSignature(req, S3_KEYS.secretAccessKey);
    if (req.headers.authorization && !signature) return refuse(res, 'AccessDenied', 'Only version-4 header signatures are accepted here.');
    if (req.headers.authorization && !req.headers.authorization.includes(`Credential=${S3_KEYS.accessKey}/`)) {
      return refuse(res, 'InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.');
    }
    if (signature && (signature.given.length !== signature.expected.length
      || !timingSafeEqual(Buffer.from(signature.given), Buffer.from(signature.expected)))) {
      return refuse(res, 'SignatureDoesNotMatch', 'The request signature we calculated does not match the signature you provided. Check your key and signing method.');
    }
    const forward = request({ host: '127.0.0.1', port: backend.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    forward.on('error', (error) => res.destroy(error));
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
  return {
    endpoint,
    destination: (bucket) => ({ endpoint, region: 'us-east-1', bucket, ...S3_KEYS }),
    async stop() {
      front.closeAllConnections();
      await new Promise<void>((resolve) => front.close(() => resolve()));
      await s3rver.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
