// Every event type keeps its meaning forever: a new shape is a new schema version, and an
// upcaster turns older recorded versions into the current one before anyone folds them.
import type { RecordedEvent } from './event.ts';

type Upcaster = (data: unknown) => unknown;

/** Current schema version of each event type whose shape has changed; all others are 1. */
const CURRENT_VERSIONS: Readonly<Record<string, number>> = {};
/** `type@fromVersion` → a function that lifts data one version. */
const UPCASTERS: Readonly<Record<string, Upcaster>> = {};

export const schemaVersionOf = (type: string): number => CURRENT_VERSIONS[type] ?? 1;

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
