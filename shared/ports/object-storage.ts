// Where backups go: a bucket behind the S3 API. The port speaks in keys and byte streams, so a
// dump flows from the database to the bucket without ever being held whole in memory.
import type { Readable } from 'node:stream';

/** A bucket and how to reach it: a destination's fields, with its secret key opened. */
export interface BucketAddress {
  readonly endpoint: string;
  readonly region: string;
  readonly bucket: string;
  readonly accessKey: string;
  readonly secretAccessKey: string;
}

export interface StoredObject {
  readonly key: string;
  readonly size: number;
  readonly lastModified: string;
}

/** Why the bucket refused or could not be reached, in words a user can act on; never a key. */
export class ObjectStorageError extends Error {
  constructor(message: string, readonly code: string) {
    super(message);
    this.name = 'ObjectStorageError';
  }
}

export interface ObjectStorage {
  /** Resolves once the bucket answered an authenticated request; else ObjectStorageError. */
  check(signal?: AbortSignal): Promise<void>;
  /** Streams `body` to `key`; answers the bytes written. */
  put(key: string, body: Readable, signal?: AbortSignal): Promise<{ size: number }>;
  /** The object's bytes as a stream. */
  get(key: string, signal?: AbortSignal): Promise<Readable>;
  /** Objects under `prefix`, oldest first. */
  list(prefix: string): Promise<StoredObject[]>;
  remove(keys: readonly string[]): Promise<void>;
}

/** Opens a bucket; the client is loaded at the first opening, so a Berth without backups never holds it. */
export type OpenObjectStorage = (address: BucketAddress) => Promise<ObjectStorage>;
