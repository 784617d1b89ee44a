// A certificate's folder is decided in the log before the certificate is written, so that neither
// two certificates asked at once share a folder nor one sits inside the other's. Each folder has a
// stream of its own (`certfolder-<path>`), appended at the revision read, which knows the
// certificate whose folder it is and the certificates whose folders are below it:
// - a certificate takes its own folder only while no one has it and no one is below it;
// - it enters each folder above its own only while none of them is a certificate's;
// - it leaves them all when it is removed, so a folder emptied of others can be taken again.
import { conflict } from '../../errors.ts';
import type { Aggregate } from '../aggregate.ts';
import { exhaustive } from '../aggregate.ts';

export interface CertificateFolder {
  path: string;
  /** The certificate whose folder it is, if any. */
  owner: string | null;
  /** The certificates whose folders are below it. */
  inside: string[];
}

/** `asked`: the folder the certificate asked for, which a refusal names. */
type Claim = { path: string; certificateId: string; asked: string };

export type CertificateFolderCommand =
  | { type: 'TakeFolder'; data: Claim }
  | { type: 'EnterFolder'; data: Claim }
  | { type: 'LeaveFolder'; data: { path: string; certificateId: string } };

export type CertificateFolderEvent =
  | { type: 'CertificateFolderTaken'; data: { path: string; certificateId: string } }
  | { type: 'CertificateFolderEntered'; data: { path: string; certificateId: string } }
  | { type: 'CertificateFolderLeft'; data: { path: string; certificateId: string } };

/** The folders above `path`, outermost first: `a`, `a/b` for `a/b/c`. */
export function parentsOf(path: string): string[] {
  const segments = path.split('/');
  return segments.slice(1).map((_segment, index) => segments.slice(0, index + 1).join('/'));
}

/** A refused claim of the folder `path`, whichever of its folders refused it. */
export const folderTaken = (path: string) => conflict(
  `certificatePath "${path}" is, is inside or holds the folder of another certificate; each certificate needs a folder of its own`,
  'certificatePath',
);

const empty = (path: string): CertificateFolder => ({ path, owner: null, inside: [] });

export const certificateFolderAggregate: Aggregate<CertificateFolder, CertificateFolderCommand, CertificateFolderEvent> = {
  name: 'certfolder',
  idField: 'path',
  label: 'Certificate folder',
  evolve(state, event) {
    const current = state ?? empty(event.data.path);
    const { certificateId } = event.data;
    switch (event.type) {
      case 'CertificateFolderTaken': return { ...current, owner: certificateId };
      case 'CertificateFolderEntered': return { ...current, inside: [...current.inside, certificateId] };
      case 'CertificateFolderLeft':
        return { ...current, owner: current.owner === certificateId ? null : current.owner, inside: current.inside.filter((id) => id !== certificateId) };
      default: return exhaustive(event);
    }
  },
  decide(command, state) {
    const folder = state ?? empty(command.data.path);
    const { path, certificateId } = command.data;
    switch (command.type) {
      case 'TakeFolder':
        if (folder.owner === certificateId) return [];
        if (folder.owner !== null || folder.inside.length > 0) throw folderTaken(command.data.asked);
        return [{ type: 'CertificateFolderTaken', data: { path, certificateId } }];
      case 'EnterFolder':
        if (folder.owner !== null) throw folderTaken(command.data.asked);
        return folder.inside.includes(certificateId) ? [] : [{ type: 'CertificateFolderEntered', data: { path, certificateId } }];
      case 'LeaveFolder':
        return folder.owner === certificateId || folder.inside.includes(certificateId)
          ? [{ type: 'CertificateFolderLeft', data: { path, certificateId } }] : [];
      default: return exhaustive(command);
    }
  },
};
