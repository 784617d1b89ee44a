// A backup's folder on its destination, `<destinationId>/<folder>`, belongs to the database whose
// backups write it, not to one backup: its dumps outlive the backup (and the database) in the
// bucket, and any backup in the folder restores and prunes them. So the claim (reservation scope
// `backupFolder`) is owned by the database's id and never let go; the database's next backup
// takes the folder again, another database's is refused. Within the database, one backup at a
// time writes the folder: it holds the folder's slot (scope `backupSlot`, same name), owned by its
// id, let go when it is removed or moves to another folder.
import type { DomainEvent } from '../../events/event.ts';
import { conflict } from '../../errors.ts';
import { ownerOf, type Backup } from './backup.ts';
import { backupFolder } from './prefix.ts';

/** The name a backup's folder is claimed under. */
export const folderName = (backup: Pick<Backup, 'destinationId' | 'prefix'>): string =>
  `${backup.destinationId}/${backupFolder(backup.prefix)}`;

/**
 * A folder another backup writes, naming prefix as the caller gave it: the folder's name leads with
 * the destination's id, which the caller sent as destinationId.
 */
export const folderTaken = (name: string) => conflict(
  `"${name.slice(name.indexOf('/') + 1).replace(/\/$/, '')}" is already the folder of another backup on this destination: choose another prefix`, 'prefix');

/** Who a folder's claim was last given to, and whether it still holds it; null for a folder never claimed. */
export interface FolderClaim {
  readonly claimant: string;
  readonly held: boolean;
}

/** The claim a folder's reservation stream records: the last owner, even one that let it go. */
export function folderClaimOf(events: readonly DomainEvent[]): FolderClaim | null {
  let claim = null as FolderClaim | null;
  for (const event of events) {
    const { owner } = event.data as { owner: string };
    if (event.type === 'NameReserved') claim = { claimant: owner, held: true };
    else if (event.type === 'NameReleased' && claim?.claimant === owner) claim = { claimant: owner, held: false };
  }
  return claim;
}

/** The backup a backup stream's first event created, if the stream is a backup's (after its removal too). */
export const createdBackupOf = (events: readonly DomainEvent[]): Backup | null =>
  events[0]?.type === 'BackupCreated' ? events[0].data as Backup : null;

/**
 * Whether the database `databaseId` may put a backup in the folder `name`: `claim` it for the
 * database (no change when it holds it already), `keep` the claim there, or 409 naming prefix.
 *
 * Claims made before folders belonged to databases are owned by a backup id, and were let go when
 * that backup was removed. The rule for them: a claim stands for its LAST claimant's database, a
 * backup id standing for the database its creation named (`claimantBackup`, read from the log, so
 * it holds after the backup's removal). A released one still counts: the removed backup's dumps
 * are still in the folder. A held one is kept as it is: nothing lets go of a folder any more, so it
 * stands for that database for good; a released one is claimed anew for the database.
 */
export function decideFolder(
  name: string, databaseId: string, claim: FolderClaim | null, claimantBackup: Backup | null,
): 'claim' | 'keep' {
  if (!claim) return 'claim';
  const claimantDatabase = claimantBackup ? ownerOf(claimantBackup) : claim.claimant;
  if (claimantDatabase !== databaseId) throw folderTaken(name);
  return claim.claimant !== databaseId && claim.held ? 'keep' : 'claim';
}

/**
 * 409 naming prefix when another live backup of the database (`siblings`) uses the folder: each
 * prunes the folder's dumps by its own `keepLatest`. The slot decides a race; this read from the
 * read model keeps the folders of backups stored before slots were claimed.
 */
export function mustBeAloneIn(name: string, backupId: string, siblings: readonly Pick<Backup, 'backupId' | 'destinationId' | 'prefix'>[]): void {
  if (siblings.some((sibling) => sibling.backupId !== backupId && folderName(sibling) === name)) throw folderTaken(name);
}
