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

const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----[\s\S]*?-----END \1-----/g;
const ONLY_CERTIFICATES = 'must be PEM-encoded X.509 certificates only (BEGIN CERTIFICATE blocks: a private key goes in privateKey)';

/**
 * The certificate blocks of `pem`, the server's own first. No other block may be in it: the chain
 * is served as a file anyone may read, and kept in the log unsealed (a key there would leak). Text
 * between blocks (the `Bag Attributes`, `subject=` lines openssl writes) is left out.
 */
function certificateBlocks(pem: string): string[] {
  const blocks = [...pem.matchAll(PEM_BLOCK)];
  const other = blocks.find((block) => block[1] !== 'CERTIFICATE');
  if (other) throw badRequest('certificateData', `${ONLY_CERTIFICATES}; it holds a ${other[1]} block`);
  // A block cut short (no END line of its kind) is no certificate either.
  if (blocks.length === 0 || /-----(BEGIN|END) /.test(pem.replace(PEM_BLOCK, ''))) throw badRequest('certificateData', ONLY_CERTIFICATES);
  return blocks.map((block) => block[0]);
}

/** The chain as it is kept and served: its certificate blocks only, each on its own lines. */
export const chainText = (pem: string): string => `${certificateBlocks(pem).join('\n')}\n`;

function parseChain(pem: string): X509Certificate[] {
  return certificateBlocks(pem).map((block, index) => {
    try {
      return new X509Certificate(block);
    } catch {
      throw badRequest('certificateData', `holds certificate ${index + 1} of the chain, which is not a parseable X.509 certificate`);
    }
  });
}

/** Each certificate must be issued (and signed) by the next one, as the proxy sends them to clients. */
function mustBeInIssuingOrder(chain: readonly X509Certificate[]): void {
  chain.slice(0, -1).forEach((certificate, index) => {
    const issuer = chain[index + 1]!;
    if (!certificate.checkIssued(issuer) || !certificate.verify(issuer.publicKey)) {
      throw badRequest('certificateData', `holds certificate ${index + 1} of the chain, which was not issued by certificate ${index + 2}: give the server's certificate first, then each issuer in order`);
    }
  });
}

function parseKey(pem: string): KeyObject {
  try {
    return createPrivateKey(pem);
  } catch {
    throw badRequest('privateKey', 'must be an unencrypted PEM-encoded private key');
  }
}

const attribute = (distinguishedName: string, name: string): string | null =>
  distinguishedName.split('\n').find((line) => line.startsWith(`${name}=`))?.slice(name.length + 1) ?? null;

/** The facts of `certificateData`'s first certificate (the server's own), or BAD_REQUEST naming the field that is unusable. */
export function inspectCertificate(certificateData: string, privateKey: string): CertificateFacts {
  const chain = parseChain(certificateData);
  mustBeInIssuingOrder(chain);
  const certificate = chain[0]!;
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
