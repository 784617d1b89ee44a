import type { RecordedEvent, StreamParts } from '@berth/shared/events/event';
import type { Doc, DocKey } from '@berth/shared/ports/read-store';

/** A read model: which documents an event touches and how each one changes. */
export interface Projection {
  readonly name: string;
  /** The collections it owns, emptied by a rebuild's switch. */
  readonly collections?: readonly string[];
  /** The aggregates whose streams it reads: the runner hands it their events only. */
  readonly aggregates: readonly string[];
  /** The documents an event touches; `stream` is the event's stream, split once by the runner. */
  keysOf(event: RecordedEvent, stream: StreamParts): readonly DocKey[];
  evolve(doc: Doc | null, event: RecordedEvent, stream: StreamParts): Doc | null;
}
