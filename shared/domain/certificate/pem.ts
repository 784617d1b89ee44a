// What Berth reads from a certificate and its key before accepting them: a pair the proxy could
// not serve (unparsable, or a key of another certificate) is refused here, at the field at fault.
import { X509Certificate, createPrivateKey, type KeyObject } from 'node:crypto';
import { badRequest } from '../../errors.ts';

/** Facts about a certificate users check (which names, until when) without decoding the PEM. */
export interface CertificateFacts {
  commonName: string | null;
  /** The DNS names of the subjectAltName extension, in order. */
  domains: string[];
  issuer: string;
  notBefore: string;
  notAfter: string;
  fingerprint256: string;
}

function parseCertificate(pem: string): X509Certificate {
  try {
    // A chain is accepted; its first certificate is the server's own, as the proxy expects.
    return new X509Certificate(pem);
  } catch {
    throw badRequest('certificateData', 'not a PEM-encoded X.509 certificate');
  }
}

function parseKey(pem: string): KeyObject {
  try {
    return createPrivateKey(pem);
  } catch {
    throw badRequest('privateKey', 'not an unencrypted PEM-encoded private key');
  }
}

const attribute = (distinguishedName: string, name: string): string | null =>
  distinguishedName.split('\n').find((line) => line.startsWith(`${name}=`))?.slice(name.length + 1) ?? null;

/** The facts of `certificateData`, or BAD_REQUEST naming the field that is unusable. */
export function inspectCertificate(certificateData: string, privateKey: string): CertificateFacts {
  const certificate = parseCertificate(certificateData);
  const key = parseKey(privateKey);
  if (!certificate.checkPrivateKey(key)) throw badRequest('privateKey', 'does not match the certificate');
  return {
    commonName: attribute(certificate.subject, 'CN'),
    domains: (certificate.subjectAltName ?? '').split(', ')
      .filter((entry) => entry.startsWith('DNS:')).map((entry) => entry.slice('DNS:'.length)),
    issuer: certificate.issuer.split('\n').join(', '),
    notBefore: new Date(certificate.validFrom).toISOString(),
    notAfter: new Date(certificate.validTo).toISOString(),
    fingerprint256: certificate.fingerprint256,
  };
}
