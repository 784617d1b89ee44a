import { MongoClient, type ClientSession, type Collection, type Db } from 'mongodb';
import { docKey, type Doc, type DocKey, type DocWrite, type FieldValue, type ReadStore } from '../../ports/read-store.ts';
import { orUnavailable, UnavailableError } from '../../ports/unavailable.ts';
import { Signal, untilAny } from '../signal.ts';
import { writeGuarded, type Stored } from './guarded-write.ts';
import { isMongoOutage } from './outage.ts';

interface Checkpoint {
  _id: string;
  position: number;
}

const CHECKPOINTS = 'berth_checkpoints';
/** The read-model collections ever written, since the stand-in server cannot list collections. */
const REGISTRY = 'berth_collections';
const POLL_MS = 15;

export interface MongoReadStoreOptions {
  /** The database; else the one the URL names. */
  readonly database?: string;
  /** Use transactions; by default when the server is a replica-set member or a router. */
  readonly transactions?: boolean;
  readonly serverSelectionTimeoutMS?: number;
  /** How long the server may stay unreachable before a new client is tried beside the old one. */
  readonly replaceClientAfterMs?: number;
}

const WHAT = 'the read store (MongoDB)';

/**
 * Whether a MongoDB connection string names no database (`mongodb://host:port` or `…/?options`):
 * the driver would then use its default one. Another scheme is left for the driver to refuse.
 */
export const namesNoDatabase = (url: string): boolean => /^mongodb(\+srv)?:\/\/[^/]*(\/(\?.*)?)?$/.test(url);

const newClient = (url: string, options: MongoReadStoreOptions) => new MongoClient(url, {
  serverSelectionTimeoutMS: options.serverSelectionTimeoutMS ?? 3000,
  // A server host lost without closing anything leaves sockets that never answer: without these
  // bounds the monitor's check waited 30 s and an operation in flight for ever.
  connectTimeoutMS: 5000,
  socketTimeoutMS: 10_000,
});

/**
 * The scaled-out read models: one MongoDB collection per read-model collection, each document
 * `{ _id, p, json, f }`: the log position it was written at, the document as JSON (any field
 * name is safe there), and its top-level scalar fields for lookups. A deleted document stays as
 * a tombstone (`json: null`) so its position still guards it. No cache: several processes read
 * what one projections process writes.
 */
export class MongoReadStore implements ReadStore {
  private readonly committed = new Signal();
  private readonly registered = new Set<string>();

  private db: Db;
  /** Since when every operation has failed as unavailable, while they do. */
  private failingSince: number | null = null;
  private replacing: Promise<void> | null = null;
  private closed = false;

  private constructor(
    private client: MongoClient,
    private readonly url: string,
    private readonly options: MongoReadStoreOptions,
    private readonly transactions: boolean,
  ) {
    this.db = client.db(options.database);
  }

  static async connect(url: string, options: MongoReadStoreOptions = {}): Promise<MongoReadStore> {
    const client = newClient(url, options);
    await orUnavailable(WHAT, isMongoOutage, () => client.connect());
    const hello = await client.db(options.database).admin().command({ hello: 1 });
    const offered = typeof hello.setName === 'string' || hello.msg === 'isdbgrid';
    return new MongoReadStore(client, url, options, options.transactions ?? offered);
  }

  private async io<T>(operation: () => Promise<T>): Promise<T> {
    try {
      const result = await orUnavailable(WHAT, isMongoOutage, operation);
      this.failingSince = null;
      return result;
    } catch (error) {
      if (error instanceof UnavailableError) this.stillFailing();
      throw error;
    }
  }

  /**
   * The driver's server monitor has been seen stuck for good when a connection closed under the
   * check it was starting: the server came back, and every operation kept failing server
   * selection with the old error. A client that fails this long is replaced by a new one, if the
   * new one reaches the server; else the next attempt waits as long again.
   */
  private stillFailing(): void {
    const now = Date.now();
    this.failingSince ??= now;
    if (this.replacing || this.closed || now - this.failingSince < (this.options.replaceClientAfterMs ?? 10_000)) return;
    this.replacing = this.replaceClient().finally(() => {
      this.replacing = null;
      this.failingSince = Date.now();
    });
  }

  private async replaceClient(): Promise<void> {
    const fresh = newClient(this.url, this.options);
    try {
      await fresh.connect();
    } catch {
      await fresh.close(true).catch(() => undefined);
      return;
    }
    if (this.closed) return void await fresh.close(true);
    const old = this.client;
    this.client = fresh;
    this.db = fresh.db(this.options.database);
    await old.close(true).catch(() => undefined);
  }

  private collection(name: string): Collection<Stored> {
    return this.db.collection<Stored>(`rm_${name}`);
  }

  private get checkpointsCollection() {
    return this.db.collection<Checkpoint>(CHECKPOINTS);
  }

  private async register(collection: string): Promise<void> {
    if (this.registered.has(collection)) return;
    await this.db.collection<{ _id: string }>(REGISTRY).updateOne({ _id: collection }, { $set: { _id: collection } }, { upsert: true });
    this.registered.add(collection);
  }

  async get(collection: string, id: string): Promise<Doc | null> {
    const found = await this.io(() => this.collection(collection).findOne({ _id: id }));
    return found?.json ? JSON.parse(found.json) : null;
  }

  async getMany(keys: readonly DocKey[]): Promise<Map<string, Doc>> {
    const idsByCollection = new Map<string, string[]>();
    for (const { collection, id } of keys) idsByCollection.set(collection, [...(idsByCollection.get(collection) ?? []), id]);
    const found = new Map<string, Doc>();
    await this.io(() => Promise.all([...idsByCollection].map(async ([collection, ids]) => {
      for (const stored of await this.collection(collection).find({ _id: { $in: ids } }).toArray()) {
        if (stored.json) found.set(docKey(collection, stored._id), JSON.parse(stored.json));
      }
    })));
    return found;
  }

  async find(collection: string, field: string, value: FieldValue): Promise<Doc[]> {
    const stored = await this.io(() => this.collection(collection).find({ [`f.${field}`]: value }).toArray());
    return stored.flatMap((entry) => (entry.json ? [JSON.parse(entry.json)] : []));
  }

  async all(collection: string): Promise<Doc[]> {
    const stored = await this.io(() => this.collection(collection).find({}).toArray());
    return stored.flatMap((entry) => (entry.json ? [JSON.parse(entry.json)] : []));
  }

  async ensureIndex(collection: string, field: string): Promise<void> {
    await this.io(async () => {
      await this.register(collection);
      await this.collection(collection).createIndex({ [`f.${field}`]: 1 });
    });
  }

  async commit(checkpoints: readonly string[], position: number, writes: readonly DocWrite[]): Promise<void> {
    await this.io(async () => {
      for (const collection of new Set(writes.map((write) => write.collection))) await this.register(collection);
      await this.atomically((session) => this.writeGuarded(checkpoints, position, writes, session));
    });
    this.committed.notify();
  }

  /** A live rebuild's switch: the collections emptied, then written as the rebuild left them. */
  async replaceCollections(collections: readonly string[], docs: readonly DocWrite[], checkpoints: readonly string[], position: number): Promise<void> {
    await this.io(async () => {
      for (const collection of new Set([...collections, ...docs.map((write) => write.collection)])) await this.register(collection);
      await this.atomically(async (session) => {
        for (const collection of collections) await this.collection(collection).deleteMany({}, { session });
        await this.writeGuarded(checkpoints, position, docs, session);
      });
    });
    this.committed.notify();
  }

  private writeGuarded(checkpoints: readonly string[], position: number, writes: readonly DocWrite[], session?: ClientSession) {
    return writeGuarded(this.db, (name) => this.collection(name), checkpoints, position, writes, session);
  }

  /** In one transaction where the server offers them; else in order, each write guarded. */
  private async atomically(work: (session?: ClientSession) => Promise<void>): Promise<void> {
    if (!this.transactions) return work();
    const session = this.client.startSession();
    try {
      await session.withTransaction(() => work(session));
    } finally {
      await session.endSession();
    }
  }

  async checkpoint(name: string): Promise<number> {
    return (await this.io(() => this.checkpointsCollection.findOne({ _id: name })))?.position ?? 0;
  }

  async checkpoints(): Promise<Map<string, number>> {
    const all = await this.io(() => this.checkpointsCollection.find({}).toArray());
    return new Map(all.map((checkpoint) => [checkpoint._id, checkpoint.position]));
  }

  async waitFor(position: number, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const all = [...(await this.checkpoints()).values()];
      if (all.length > 0 && Math.min(...all) >= position) return;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`Read models did not reach position ${position} within ${timeoutMs} ms`);
      // The stand-in has no change streams: poll, and wake at once for commits of this process.
      await untilAny([this.committed], { timeoutMs: Math.min(left, POLL_MS), holdProcess: true });
    }
  }

  /** Other processes write the same documents: no change is seen here, so none is promised. */
  version(): null {
    return null;
  }

  async clear(): Promise<void> {
    await this.io(async () => {
      const names = await this.db.collection<{ _id: string }>(REGISTRY).find({}).toArray();
      for (const { _id } of names) await this.collection(_id).deleteMany({});
      await this.checkpointsCollection.deleteMany({});
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.replacing;
    await this.client.close();
  }
}
