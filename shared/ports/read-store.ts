export type Doc = Record<string, unknown>;
export type FieldValue = string | number | boolean;

export interface DocKey {
  readonly collection: string;
  readonly id: string;
}

/** A document to write, or `null` to delete it. */
export interface DocWrite extends DocKey {
  readonly doc: Doc | null;
}

/** Documents answered are shared with the store's cache: treat them as read-only. */
export interface ReadStore {
  get(collection: string, id: string): Promise<Doc | null>;
  getMany(keys: readonly DocKey[]): Promise<Map<string, Doc>>;
  /** Documents whose top-level `field` equals `value`. */
  find(collection: string, field: string, value: FieldValue): Promise<Doc[]>;
  all(collection: string): Promise<Doc[]>;
  /** Ensures lookups on `field` are indexed. */
  ensureIndex(collection: string, field: string): Promise<void>;
  /** Writes the documents and moves the named checkpoints to `position`, atomically. */
  commit(checkpoints: readonly string[], position: number, writes: readonly DocWrite[]): Promise<void>;
  /**
   * Replaces every document of `collections` with `docs` and moves the named checkpoints to
   * `position`, atomically: a reader sees the old documents or the new ones, never a mix (a live
   * rebuild's switch).
   */
  replaceCollections(collections: readonly string[], docs: readonly DocWrite[], checkpoints: readonly string[], position: number): Promise<void>;
  checkpoint(name: string): Promise<number>;
  /** Every projection's checkpoint. Checkpoints never move back. */
  checkpoints(): Promise<Map<string, number>>;
  /** Resolves once every projection's checkpoint has reached `position`, or rejects after `timeoutMs`. */
  waitFor(position: number, timeoutMs: number): Promise<void>;
  /**
   * A number that changes whenever any document may have changed, when this store can tell (it is
   * the only writer of its documents, in this process); `null` when it cannot. While it stays the
   * same, an answer assembled from the documents stays true.
   */
  version(): number | null;
  /** Deletes every document and checkpoint (a rebuild's fresh start). */
  clear(): Promise<void>;
  close(): Promise<void>;
}

export const docKey = (collection: string, id: string): string => `${collection}\u0000${id}`;
