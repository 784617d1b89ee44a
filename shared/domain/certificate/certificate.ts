import { badRequest, conflict } from '../../errors.ts';
import type { Sealed } from '../../crypto/secrets.ts';
import type { Aggregate } from '../aggregate.ts';
import { exhaustive } from '../aggregate.ts';
import { mustExist, mustNotExist } from '../decisions.ts';
import type { CertificateFacts } from './pem.ts';

/** A TLS certificate with its key, served by the proxy for the domains that use it. */
export interface Certificate extends CertificateFacts {
  certificateId: string;
  name: string;
  certificateData: string;
  /** Sealed by the handler: the log never holds a private key in clear. */
  privateKey: Sealed;
  /** Folder of the certificate's files, relative to the proxy's dynamic configuration folder. */
  certificatePath: string;
  autoRenew: boolean | null;
  createdAt: string;
}

/** A certificate already stored, with the folder its files are in, as the handler read it. */
export type Placed = Pick<Certificate, 'certificateId' | 'certificatePath'>;

export type CertificateCommand =
  | { type: 'CreateCertificate'; data: Certificate & { taken: readonly Placed[] } }
  | { type: 'RemoveCertificate'; data: { certificateId: string } };

export type CertificateEvent =
  | { type: 'CertificateCreated'; data: Certificate }
  | { type: 'CertificateRemoved'; data: { certificateId: string } };

const LABEL = 'Certificate';
// A segment may not start with a dot (no `..`, no hidden files); ids may start with `-`.
const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9_.-]*$/;

/** The default folder of a certificate's files: one per certificate, so none overwrites another. */
export const defaultCertificatePath = (certificateId: string) => `certificates/${certificateId}`;

/**
 * The proxy writer creates files under `certificatePath`: a relative path of plain segments only,
 * so no certificate can be written outside the proxy's folder (no `..`, no absolute path).
 */
export function mustBeCertificatePath(path: string): void {
  if (!path.split('/').every((segment) => SEGMENT.test(segment))) {
    throw badRequest('certificatePath', 'must be a relative path of letters, digits, "_", "-" and "." (no "..")');
  }
}

const isInside = (inner: string, outer: string) => inner.startsWith(`${outer}/`);

function relation(path: string, other: string): string | null {
  if (path === other) return 'is the folder of';
  if (isInside(path, other)) return 'is inside the folder of';
  return isInside(other, path) ? 'contains the folder of' : null;
}

/**
 * Each certificate's files have a folder of their own: in a shared or nested one, a second
 * certificate would overwrite the first's files, and removing one would delete the other's.
 */
function mustHaveOwnFolder(path: string, taken: readonly Placed[]): void {
  for (const other of taken) {
    const how = relation(path, other.certificatePath);
    if (how) {
      throw conflict(`certificatePath "${path}" ${how} certificate ${other.certificateId} ("${other.certificatePath}"); each certificate needs a folder of its own`, 'certificatePath');
    }
  }
}

export const certificateAggregate: Aggregate<Certificate, CertificateCommand, CertificateEvent> = {
  name: 'certificate',
  idField: 'certificateId',
  label: LABEL,
  evolve(_state, event) {
    switch (event.type) {
      case 'CertificateCreated': return { ...event.data };
      case 'CertificateRemoved': return null;
      default: return exhaustive(event);
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'CreateCertificate': {
        const { taken, ...certificate } = command.data;
        mustNotExist(state, LABEL, 'certificateId');
        mustBeCertificatePath(certificate.certificatePath);
        mustHaveOwnFolder(certificate.certificatePath, taken);
        return [{ type: 'CertificateCreated', data: certificate }];
      }
      case 'RemoveCertificate':
        mustExist(state, 'certificateId', LABEL);
        return [{ type: 'CertificateRemoved', data: command.data }];
      default: return exhaustive(command);
    }
  },
};
