// What a backup or restore run works on, gathered and checked before anything is written:
// the backup, its destination with the key opened, the database and its engine's profile.
import type { Engine } from '../contract/databases.ts';
import type { SecretBox } from '../crypto/secrets.ts';
import type { Backup } from '../domain/backup/backup.ts';
import type { Database } from '../domain/database/database.ts';
import type { Destination } from '../domain/destination/destination.ts';
import { profileOf, type EngineProfile } from '../domain/database/profile.ts';
import type { ProfileOverrides } from '../domain/database/profile-override.ts';
import type { BucketAddress } from '../ports/object-storage.ts';
import { backupFolder } from '../domain/backup/prefix.ts';

export interface RunPlan {
  readonly backup: Backup;
  readonly engine: Engine;
  readonly profile: EngineProfile;
  /** The database service the run reads from (backup) or writes into (restore). */
  readonly database: Database;
  readonly databaseId: string;
  readonly bucket: BucketAddress;
  /** Every secret the run could meet: scrubbed from whatever it records. */
  readonly secrets: readonly string[];
}

export function planOf(
  box: SecretBox, backup: Backup, destination: Destination, database: Database, databaseId: string, profiles: ProfileOverrides,
): RunPlan {
  const engine = backup.databaseType;
  const secretAccessKey = box.open(destination.secretAccessKey);
  const passwords = [database.databasePassword, database.databaseRootPassword].flatMap((sealed) => (sealed ? [box.open(sealed)] : []));
  return {
    backup, engine, database, databaseId,
    profile: profileOf(engine, database.containerImage, profiles),
    bucket: { endpoint: destination.endpoint, region: destination.region, bucket: destination.bucket, accessKey: destination.accessKey, secretAccessKey },
    secrets: [secretAccessKey, ...passwords].filter((secret) => secret.length >= 4),
  };
}

/** `text` with every secret of the plan blotted out. */
export const scrubbed = (plan: RunPlan, text: string): string =>
  plan.secrets.reduce((result, secret) => result.split(secret).join('***'), text);

/** `<prefix>/<ISO timestamp>.<ext>.gz`: a backup's keys sort in the order they were written. */
export const objectKey = (plan: RunPlan, at: Date): string => `${folderOf(plan)}${at.toISOString()}.${plan.profile.extension}.gz`;

/** The folder a backup's objects live in, for listing and pruning. */
export const folderOf = (plan: RunPlan): string => backupFolder(plan.backup.prefix);

const ISO_TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/**
 * Whether `key` is one this backup writes: a direct child of its folder named `<ISO timestamp>.<ext>.gz`
 * for its engine. Anything else under the folder (a sub-folder's, a person's object) is never
 * pruned or restored by it. Keys an earlier backup of the same database wrote there pass too (its
 * next backup restores them): a folder stays its database's, so no other database's backup gets it.
 */
export function isOwnKey(plan: RunPlan, key: string): boolean {
  const folder = folderOf(plan);
  const suffix = `.${plan.profile.extension}.gz`;
  if (!key.startsWith(folder) || !key.endsWith(suffix)) return false;
  const stamp = key.slice(folder.length, key.length - suffix.length);
  const time = Date.parse(stamp);
  return ISO_TIMESTAMP.test(stamp) && !Number.isNaN(time) && new Date(time).toISOString() === stamp;
}
