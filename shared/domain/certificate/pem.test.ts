import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { DomainError } from '../../errors.ts';
import { inspectCertificate } from './pem.ts';

/** A real self-signed pair from openssl: RSA, with a subjectAltName, valid for a day. */
function selfSigned(commonName: string) {
  const dir = mkdtempSync(join(tmpdir(), 'berth-pem-'));
  try {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(dir, 'k.pem'), '-out', join(dir, 'c.pem'),
      '-days', '1', '-subj', `/CN=${commonName}`, '-addext', `subjectAltName=DNS:${commonName},DNS:www.${commonName}`], { stdio: 'ignore' });
    return { certificate: readFileSync(join(dir, 'c.pem'), 'utf8'), key: readFileSync(join(dir, 'k.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const refusal = (field: string, pattern: RegExp) => (error: unknown) => {
  assert.ok(error instanceof DomainError);
  assert.equal(error.code, 'BAD_REQUEST');
  assert.equal(error.issues[0]?.path, field);
  assert.match(error.message, pattern);
  return true;
};

describe('reading a certificate and its key', () => {
  const shop = selfSigned('shop.example.com');
  const other = selfSigned('other.example.com');

  it('answers the names and validity of a certificate with its own key', () => {
    const facts = inspectCertificate(shop.certificate, shop.key);
    assert.equal(facts.commonName, 'shop.example.com');
    assert.deepEqual(facts.domains, ['shop.example.com', 'www.shop.example.com']);
    const lifetime = Date.parse(facts.notAfter) - Date.parse(facts.notBefore);
    assert.equal(lifetime, 24 * 3600 * 1000);
    assert.match(facts.fingerprint256, /^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
  });
  it('refuses the key of another certificate, naming privateKey', () => {
    assert.throws(() => inspectCertificate(shop.certificate, other.key), refusal('privateKey', /does not match the certificate/));
  });
  it('refuses text that is not a certificate, naming certificateData', () => {
    assert.throws(() => inspectCertificate('hello', shop.key), refusal('certificateData', /X\.509/));
    assert.throws(() => inspectCertificate(shop.key, shop.key), refusal('certificateData', /X\.509/));
  });
  it('refuses text that is not a private key, naming privateKey', () => {
    assert.throws(() => inspectCertificate(shop.certificate, 'hello'), refusal('privateKey', /private key/));
    assert.throws(() => inspectCertificate(shop.certificate, shop.certificate), refusal('privateKey', /private key/));
  });
});
