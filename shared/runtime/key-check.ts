// The instance key every process must share, checked against the log: the first process to open
// a log writes a proof of its key there (an HMAC, which opens nothing), and every later one
// compares, so a process with another key stops before it seals anything the others cannot open.
// A log written before the check is given one only by a key that opens the secrets it holds.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { newId } from '../ids.ts';
import type { Clock } from '../ports/clock.ts';
import { everyEvent, WrongExpectedVersionError, type EventStore } from '../ports/event-store.ts';
import { isSealed, type Sealed } from '../crypto/secrets.ts';
import { deriveKey, secretBoxOf } from './keys.ts';

/** Where a log without a place of its own for the check keeps it: a stream of an aggregate no projection, reactor or webhook reads. */
export const KEY_CHECK_STREAM = 'instancekey-check';
export const KEY_CHECK_WRITTEN = 'InstanceKeyCheckWritten';

export class InstanceKeyMismatchError extends Error {
  constructor() {
    super('BERTH_INSTANCE_KEY is not the key the event log was written with: give this process the same BERTH_INSTANCE_KEY as the others '
      + '(without it, the data folder\'s instance.key is used)');
    this.name = 'InstanceKeyMismatchError';
  }
}

const proofOf = (instanceKey: Buffer): string =>
  createHmac('sha256', deriveKey(instanceKey, 'key-check')).update('berth instance key').digest('base64url');

/** Where a log keeps the check: the embedded log beside its events (no position, no history), others in a stream. */
interface CheckRecord {
  read(): Promise<string | null>;
  /** Writes `proof` unless a check is there already: whether it did. */
  writeOnce(proof: string): Promise<boolean>;
}

interface KeepsCheckBeside {
  readKeyCheck(): Promise<string | null>;
  writeKeyCheckOnce(proof: string): Promise<boolean>;
}

const keepsCheckBeside = (store: EventStore): store is EventStore & KeepsCheckBeside =>
  'readKeyCheck' in store && 'writeKeyCheckOnce' in store;

/** `no_stream` makes two first processes agree: the second's append is refused. */
const inStream = (store: EventStore, clock: Clock): CheckRecord => ({
  async read() {
    const [first] = (await store.readStream(KEY_CHECK_STREAM)).events;
    const proof = (first?.data as { proof?: unknown } | undefined)?.proof;
    return typeof proof === 'string' ? proof : null;
  },
  async writeOnce(proof) {
    try {
      await store.append(KEY_CHECK_STREAM, [{
        id: newId(), type: KEY_CHECK_WRITTEN, data: { proof },
        metadata: { actorId: null, correlationId: newId(), causationId: null, occurredAt: clock.now().toISOString(), schemaVersion: 1 },
      }], 'no_stream');
      return true;
    } catch (error) {
      if (error instanceof WrongExpectedVersionError) return false;
      throw error;
    }
  },
});

/** The first sealed value anywhere in `value`, or null. */
function sealedIn(value: unknown): Sealed | null {
  if (isSealed(value)) return value;
  if (value === null || typeof value !== 'object') return null;
  for (const item of Object.values(value)) {
    const found = sealedIn(item);
    if (found) return found;
  }
  return null;
}

/**
 * Whether this key opens the first secret a log written before the check sealed (true when it
 * holds none): the check such a log is given must not be another key's.
 */
async function opensTheLog(store: EventStore, instanceKey: Buffer): Promise<boolean> {
  for await (const event of everyEvent((after, limit) => store.readAll(after, limit))) {
    const sealed = sealedIn(event.data);
    if (!sealed) continue;
    try {
      secretBoxOf(instanceKey).open(sealed);
      return true;
    } catch {
      return false;
    }
  }
  return true;
}

/**
 * Throws InstanceKeyMismatchError unless the log's check is this key's; a log without one (new,
 * or written before the check existed) is given this key's, if the key opens the secrets it
 * holds. Of two first processes, one writes and the other compares with what it wrote.
 */
export async function verifyInstanceKey(store: EventStore, instanceKey: Buffer, clock: Clock): Promise<void> {
  const record: CheckRecord = keepsCheckBeside(store)
    ? { read: () => store.readKeyCheck(), writeOnce: (proof) => store.writeKeyCheckOnce(proof) }
    : inStream(store, clock);
  const mine = proofOf(instanceKey);
  const written = await record.read();
  if (written === null && !(await opensTheLog(store, instanceKey))) throw new InstanceKeyMismatchError();
  const theirs = written ?? (await record.writeOnce(mine) ? mine : await record.read());
  if (theirs === null || theirs.length !== mine.length || !timingSafeEqual(Buffer.from(theirs), Buffer.from(mine))) {
    throw new InstanceKeyMismatchError();
  }
}
