import type { RecordedEvent } from '@berth/shared/events/event';
import type { Doc, DocKey } from '@berth/shared/ports/read-store';

/** A read model: which documents an event touches and how each one changes. */
export interface Projection {
  readonly name: string;
  /** The collections it owns, emptied by a rebuild's switch. */
  readonly collections?: readonly string[];
  keysOf(event: RecordedEvent): readonly DocKey[];
  evolve(doc: Doc | null, event: RecordedEvent): Doc | null;
}
