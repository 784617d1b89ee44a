// A real self-signed certificate and its key, made with openssl for the tests that need one.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface CertificatePair {
  readonly certificateData: string;
  readonly privateKey: string;
}

/** A certificate for `commonName`, with a subjectAltName of the DNS names `altNames` when given. */
export function selfSignedCertificate(commonName = 'berth.test', options: { altNames?: readonly string[] } = {}): CertificatePair {
  const dir = mkdtempSync(join(tmpdir(), 'berth-cert-'));
  const altNames = options.altNames?.length
    ? ['-addext', `subjectAltName=${options.altNames.map((name) => `DNS:${name}`).join(',')}`]
    : [];
  try {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes',
      '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-days', '2', '-subj', `/CN=${commonName}`, ...altNames],
      { stdio: 'ignore' });
    return {
      certificateData: readFileSync(join(dir, 'cert.pem'), 'utf8'),
      privateKey: readFileSync(join(dir, 'key.pem'), 'utf8'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
