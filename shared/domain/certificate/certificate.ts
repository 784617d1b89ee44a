import { badRequest, conflict } from '../../errors.ts';
import type { Sealed } from '../../crypto/secrets.ts';
import type { Aggregate } from '../aggregate.ts';
import { exhaustive } from '../aggregate.ts';
import { mustExist, mustNotExist } from '../decisions.ts';
import type { CertificateFacts } from './pem.ts';
import { mustBeAcceptable } from './acceptable.ts';

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

/**
 * A certificate already stored, with the folder its files are in, as the handler read it: the
 * claims in the log (folder.ts) decide a race; this read decides for certificates stored before them.
 */
export type Placed = Pick<Certificate, 'certificateId' | 'certificatePath'>;

/** What creating one needs: `certificatePath` null when the caller chose none (the default folder then). */
export type NewCertificate = Omit<Certificate, 'certificatePath'> & { certificatePath: string | null; taken: readonly Placed[] };

export type CertificateCommand =
  | { type: 'CreateCertificate'; data: NewCertificate }
  | { type: 'RemoveCertificate'; data: { certificateId: string } };

export type CertificateEvent =
  | { type: 'CertificateCreated'; data: Certificate }
  | { type: 'CertificateRemoved'; data: { certificateId: string } };

const LABEL = 'Certificate';
// A segment may not start with a dot (no `..`, no hidden files); ids may start with `-`.
const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9_.-]*$/;
// The proxy reads every `.yml`/`.yaml` file of its folder as configuration, and an application's
// file is `<appName>.yml` there: a folder of that name would block it, or be blocked by it.
const PROXY_FILE = /\.ya?ml$/i;
// Longer names fail in the filesystem (ENAMETOOLONG), after the certificate was accepted.
const MAX_SEGMENT_BYTES = 255;
const MAX_PATH_LENGTH = 1024;
const DEFAULTS_FOLDER = 'certificates';

/** The default folder of a certificate's files: one per certificate, so none overwrites another. */
export const defaultCertificatePath = (certificateId: string) => `${DEFAULTS_FOLDER}/${certificateId}`;

/** Why `segment` cannot be a folder of the proxy's, or null. */
function segmentFault(segment: string): string | null {
  if (!SEGMENT.test(segment)) return 'must be a relative path of letters, digits, "_", "-" and "." (no "..")';
  if (Buffer.byteLength(segment) > MAX_SEGMENT_BYTES) return `holds a folder name longer than ${MAX_SEGMENT_BYTES} bytes`;
  return PROXY_FILE.test(segment) ? 'holds a folder name ending in ".yml" or ".yaml", which the proxy reads as a configuration file' : null;
}

/**
 * The proxy writer creates files under `certificatePath`: a relative path of plain segments only,
 * so no certificate can be written outside the proxy's folder (no `..`, no absolute path), and
 * none in the way of an application's file, or refused by the filesystem once accepted.
 */
export function mustBeCertificatePath(path: string): void {
  if (path.length > MAX_PATH_LENGTH) throw badRequest('certificatePath', `may be at most ${MAX_PATH_LENGTH} characters long`);
  const fault = path.split('/').map(segmentFault).find((found) => found !== null);
  if (fault) throw badRequest('certificatePath', fault);
  // It would contain every default folder: each later certificate sent without a path would be refused.
  if (path === DEFAULTS_FOLDER) {
    throw badRequest('certificatePath', `must not be "${DEFAULTS_FOLDER}", which holds the folders of the certificates sent without a certificatePath: choose another folder, or one inside it`);
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
function mustHaveOwnFolder(path: string, chosen: boolean, taken: readonly Placed[]): void {
  for (const other of taken) {
    const how = relation(path, other.certificatePath);
    if (!how) continue;
    const clash = `${chosen ? '' : 'was not sent, and its default folder '}"${path}" ${how} certificate ${other.certificateId} ("${other.certificatePath}")`;
    throw conflict(`${clash}; each certificate needs a folder of its own${chosen ? '' : ': send a certificatePath'}`, 'certificatePath');
  }
}

/**
 * The folder a new certificate's files go in: BAD_REQUEST when the proxy cannot hold it, CONFLICT
 * when it clashes with a certificate in `taken` (the handler asks first, before it claims anything).
 */
export function folderOf({ certificateId, certificatePath: chosen, taken }: Pick<NewCertificate, 'certificateId' | 'certificatePath' | 'taken'>): string {
  const certificatePath = chosen ?? defaultCertificatePath(certificateId);
  mustBeCertificatePath(certificatePath);
  mustHaveOwnFolder(certificatePath, chosen !== null, taken);
  return certificatePath;
}

function created({ taken, ...certificate }: NewCertificate): CertificateEvent {
  mustBeAcceptable(certificate);
  return { type: 'CertificateCreated', data: { ...certificate, certificatePath: folderOf({ ...certificate, taken }) } };
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
      case 'CreateCertificate':
        mustNotExist(state, LABEL, 'certificateId');
        return [created(command.data)];
      case 'RemoveCertificate':
        mustExist(state, 'certificateId', LABEL);
        return [{ type: 'CertificateRemoved', data: command.data }];
      default: return exhaustive(command);
    }
  },
};
