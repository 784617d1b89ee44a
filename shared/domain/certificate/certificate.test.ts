import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DomainError } from '../../errors.ts';
import type { Sealed } from '../../crypto/secrets.ts';
import { specOf } from '../testing.ts';
import { certificateAggregate, type Certificate, type NewCertificate } from './certificate.ts';

const spec = specOf(certificateAggregate);
const created: Certificate = {
  certificateId: 'c1', name: 'shop', certificateData: '-----BEGIN CERTIFICATE-----', privateKey: 'enc:v1:a.b.c' as Sealed,
  certificatePath: 'certificates/c1', autoRenew: false, commonName: 'shop.example.com', domains: ['shop.example.com'],
  issuer: 'CN=shop.example.com', notBefore: '2026-01-01T00:00:00.000Z', notAfter: '2026-04-01T00:00:00.000Z',
  fingerprint256: 'AA:BB', createdAt: '2026-01-01T00:00:00.000Z',
};

const create = (certificate: Omit<NewCertificate, 'taken'>, taken: { certificateId: string; certificatePath: string }[] = []) =>
  ({ type: 'CreateCertificate', data: { ...certificate, taken } }) as const;

describe('certificate decider', () => {
  it('creates a certificate that does not exist yet', () => {
    spec.given([]).when(create(created)).then([{ type: 'CertificateCreated', data: created }]);
  });
  it('refuses a chosen certificateId that is already taken', () => {
    spec.given([{ type: 'CertificateCreated', data: created }]).when(create(created))
      .thenFails('CONFLICT', 'certificateId');
  });
  it('refuses a certificatePath that could leave the proxy folder', () => {
    for (const certificatePath of ['../etc', '/etc/ssl', 'certs/../../x', 'a//b', 'a b']) {
      spec.given([]).when(create({ ...created, certificatePath })).thenFails('BAD_REQUEST', 'certificatePath');
    }
  });
  it('refuses a certificatePath that is, is inside or contains another certificate\'s folder, naming certificatePath', () => {
    const taken = [{ certificateId: 'c0', certificatePath: 'shop/tls' }];
    for (const certificatePath of ['shop/tls', 'shop/tls/next', 'shop']) {
      spec.given([]).when(create({ ...created, certificatePath }, taken)).thenFails('CONFLICT', 'certificatePath');
    }
  });
  it('accepts a folder beside another certificate\'s, even one whose name starts the same', () => {
    const taken = [{ certificateId: 'c0', certificatePath: 'shop/tls' }];
    for (const certificatePath of ['shop/tls2', 'shop/tl', 'shop/other']) {
      spec.given([]).when(create({ ...created, certificatePath }, taken))
        .then([{ type: 'CertificateCreated', data: { ...created, certificatePath } }]);
    }
  });
  it('puts a certificate sent without a certificatePath in its default folder', () => {
    spec.given([]).when(create({ ...created, certificatePath: null }))
      .then([{ type: 'CertificateCreated', data: { ...created, certificatePath: 'certificates/c1' } }]);
  });
  it('says so when the default folder is taken, and that a certificatePath would do', () => {
    const taken = [{ certificateId: 'c0', certificatePath: 'certificates/c1' }];
    assert.throws(() => certificateAggregate.decide(create({ ...created, certificatePath: null }, taken), null), (error: unknown) => {
      assert.ok(error instanceof DomainError && error.code === 'CONFLICT');
      assert.equal(error.issues[0]?.path, 'certificatePath');
      assert.match(error.message, /^certificatePath was not sent, and its default folder "certificates\/c1" is the folder of certificate c0 .*: send a certificatePath$/);
      return true;
    });
  });
  it('refuses a certificate expired at createdAt, or valid for no moment, naming certificateData', () => {
    for (const dates of [{ createdAt: '2026-04-01T00:00:01.000Z' }, { notAfter: created.notBefore }, { notAfter: '2025-12-31T00:00:00.000Z' }]) {
      spec.given([]).when(create({ ...created, ...dates })).thenFails('BAD_REQUEST', 'certificateData');
    }
  });
  it('refuses autoRenew: true, naming autoRenew; takes null', () => {
    spec.given([]).when(create({ ...created, autoRenew: true })).thenFails('BAD_REQUEST', 'autoRenew');
    spec.given([]).when(create({ ...created, autoRenew: null })).then([{ type: 'CertificateCreated', data: { ...created, autoRenew: null } }]);
  });
  it('answers NOT_FOUND naming certificateId when removing one that is gone', () => {
    spec.given([{ type: 'CertificateCreated', data: created }, { type: 'CertificateRemoved', data: { certificateId: 'c1' } }])
      .when({ type: 'RemoveCertificate', data: { certificateId: 'c1' } }).thenFails('NOT_FOUND', 'certificateId');
  });
});
