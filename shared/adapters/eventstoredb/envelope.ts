import { createHash } from 'node:crypto';
import { jsonEvent, type JSONEventType, type Position, type ResolvedEvent } from '@eventstore/db-client';
import type { EventMetadata, NewEvent, RecordedEvent } from '../../events/event.ts';
import { upcast } from '../../events/catalogue.ts';

/** What the event's custom metadata holds: Berth's metadata and its own event id. */
type StoredMetadata = EventMetadata & { readonly berthId: string };

/**
 * EventStoreDB wants UUIDs: derive one from Berth's id, always the same, so that a retried append
 * of the same events is recognised by the server as a duplicate and written once.
 */
export function uuidOf(id: string): string {
  const hex = createHash('sha256').update(`berth-event:${id}`).digest('hex');
  // Shaped as a version-8 (custom) RFC 4122 UUID.
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export const toStored = (event: NewEvent) => jsonEvent({
  id: uuidOf(event.id),
  type: event.type,
  data: event.data as JSONEventType['data'],
  metadata: { ...event.metadata, berthId: event.id } satisfies StoredMetadata,
});

/**
 * The port's positions are $all commit positions. They fit a JavaScript number for 8 PiB of
 * log; past that a position cannot be given out exactly, which is refused rather than rounded.
 */
export function toPosition(commit: bigint): number {
  if (commit > BigInt(Number.MAX_SAFE_INTEGER)) throw new Error(`$all position ${commit} is beyond what Berth can address`);
  return Number(commit);
}

/** Where to read $all from: the port's 0 is the start, else the event at that commit position. */
export const fromPosition = (position: number): Position | 'start' =>
  position === 0 ? 'start' : { commit: BigInt(position), prepare: BigInt(position) };

/** System events (`$`-prefixed types or streams) are the server's own, never Berth's. */
export const isSystem = (resolved: ResolvedEvent): boolean =>
  !resolved.event || resolved.event.type.startsWith('$') || resolved.event.streamId.startsWith('$');

/** Where an entry of $all lies, a system event's too. */
export const commitOf = (resolved: ResolvedEvent): bigint | undefined => resolved.event?.position?.commit ?? resolved.commitPosition;

export function toRecorded(resolved: ResolvedEvent): RecordedEvent {
  const event = resolved.event!;
  const { berthId, ...metadata } = event.metadata as unknown as StoredMetadata;
  const commit = commitOf(resolved);
  if (commit === undefined) throw new Error(`event ${event.id} came without a position`);
  return upcast({
    id: berthId,
    type: event.type,
    data: event.data,
    metadata,
    stream: event.streamId,
    revision: Number(event.revision),
    position: toPosition(commit),
  });
}
