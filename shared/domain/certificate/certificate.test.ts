import { describe, it } from 'node:test';
import type { Sealed } from '../../crypto/secrets.ts';
import { specOf } from '../testing.ts';
import { certificateAggregate, type Certificate } from './certificate.ts';

const spec = specOf(certificateAggregate);
const created: Certificate = {
  certificateId: 'c1', name: 'shop', certificateData: '-----BEGIN CERTIFICATE-----', privateKey: 'enc:v1:a.b.c' as Sealed,
  certificatePath: 'certificates/c1', autoRenew: false, commonName: 'shop.example.com', domains: ['shop.example.com'],
  issuer: 'CN=shop.example.com', notBefore: '2026-01-01T00:00:00.000Z', notAfter: '2026-04-01T00:00:00.000Z',
  fingerprint256: 'AA:BB', createdAt: '2026-01-01T00:00:00.000Z',
};

describe('certificate decider', () => {
  it('creates a certificate that does not exist yet', () => {
    spec.given([]).when({ type: 'CreateCertificate', data: created }).then([{ type: 'CertificateCreated', data: created }]);
  });
  it('refuses a chosen certificateId that is already taken', () => {
    spec.given([{ type: 'CertificateCreated', data: created }]).when({ type: 'CreateCertificate', data: created })
      .thenFails('CONFLICT', 'certificateId');
  });
  it('refuses a certificatePath that could leave the proxy folder', () => {
    for (const certificatePath of ['../etc', '/etc/ssl', 'certs/../../x', 'a//b', 'a b']) {
      spec.given([]).when({ type: 'CreateCertificate', data: { ...created, certificatePath } }).thenFails('BAD_REQUEST', 'certificatePath');
    }
  });
  it('answers NOT_FOUND naming certificateId when removing one that is gone', () => {
    spec.given([{ type: 'CertificateCreated', data: created }, { type: 'CertificateRemoved', data: { certificateId: 'c1' } }])
      .when({ type: 'RemoveCertificate', data: { certificateId: 'c1' } }).thenFails('NOT_FOUND', 'certificateId');
  });
});
