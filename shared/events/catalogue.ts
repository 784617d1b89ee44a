// Every event type keeps its meaning forever: a new shape is a new schema version, and an
// upcaster turns older recorded versions into the current one before anyone folds them.
import { requestOf, type NewDeployment } from '../domain/deployment/record.ts';
import type { RecordedEvent } from './event.ts';

type Upcaster = (data: unknown) => unknown;

/** Current schema version of each event type whose shape has changed; all others are 1. */
const CURRENT_VERSIONS: Readonly<Record<string, number>> = { DeploymentQueued: 2 };
/** `type@fromVersion` → a function that lifts data one version. */
const UPCASTERS: Readonly<Record<string, Upcaster>> = {
  // v1 carried the whole queued record (status, reason, timestamps: all empty then); v2 only the request.
  'DeploymentQueued@1': (data) => requestOf(data as NewDeployment),
};

export const schemaVersionOf = (type: string): number => CURRENT_VERSIONS[type] ?? 1;

/** The versions above: part of what the read models are built from (projections/src/fingerprint.ts). */
export const schemaVersions = (): Readonly<Record<string, number>> => CURRENT_VERSIONS;

/** Applied by every event store adapter and bus as it decodes an event, so no reader sees an old shape. */
export function upcast(event: RecordedEvent): RecordedEvent {
  let { data } = event;
  let version = event.metadata.schemaVersion;
  const target = schemaVersionOf(event.type);
  while (version < target) {
    const lift = UPCASTERS[`${event.type}@${version}`];
    if (!lift) throw new Error(`No upcaster for ${event.type} v${version}`);
    data = lift(data);
    version++;
  }
  return version === event.metadata.schemaVersion ? event : { ...event, data, metadata: { ...event.metadata, schemaVersion: version } };
}
