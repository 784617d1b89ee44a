import type { RecordedEvent, StreamParts } from '@berth/shared/events/event';
import type { Doc, DocKey } from '@berth/shared/ports/read-store';

/** A read model: which documents an event touches and how each one changes. */
export interface Projection {
  readonly name: string;
  /** The collections it owns, emptied by a rebuild's switch. */
  readonly collections?: readonly string[];
  /** The aggregates whose streams it reads: the runner hands it their events only. */
  readonly aggregates: readonly string[];
  /**
   * Each of its documents is made by the events of one stream and keyed by that stream's id: at a
   * stream's first event there is none yet, so the runner does not look for it.
   */
  readonly documentPerStream?: true;
  /** The documents an event touches; `stream` is the event's stream, split once by the runner. */
  keysOf(event: RecordedEvent, stream: StreamParts): readonly DocKey[];
  evolve(doc: Doc | null, event: RecordedEvent, stream: StreamParts): Doc | null;
}
