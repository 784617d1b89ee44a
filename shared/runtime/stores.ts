// Which event store and read store this process uses: the configured servers of the scaled-out
// mode, else the embedded SQLite files of the data folder.
import { join } from 'node:path';
import { SqliteEventStore } from '../adapters/sqlite/event-store.ts';
import { SqliteReadStore } from '../adapters/sqlite/read-store.ts';
import type { EventStore } from '../ports/event-store.ts';
import type { ReadStore } from '../ports/read-store.ts';
import { UnavailableError } from '../ports/unavailable.ts';
import { isScaledOut, type Config } from './config.ts';
import { messageOf } from '../errors.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The variable a server's address came from, so that a start-up failure can name it. */
export interface ConfiguredBy {
  readonly variable: string;
  readonly url: string;
}

/** A driver's reason on one line: a start-up failure is one line of the log. */
const oneLine = (message: string) => message.replace(/\s*\n\s*/g, ' ').trim();

/**
 * Connects, waiting with back-off while the server cannot be reached (it may be starting beside
 * this process), saying so on each attempt; past the configured bound it gives up with an error.
 * Any other failure (a malformed address, a refused handshake) waiting cannot mend: it is thrown
 * at once, naming the variable the address came from.
 */
export async function connectWithBackoff<T>(what: string, config: Config, connect: () => Promise<T>, by: ConfiguredBy,
  log: (line: string) => void = (line) => console.error(line)): Promise<T> {
  const deadline = Date.now() + config.connectTimeoutSeconds * 1000;
  for (let attempt = 1; ; attempt++) {
    try {
      return await connect();
    } catch (error) {
      if (!(error instanceof UnavailableError)) {
        const reason = oneLine(messageOf(error));
        throw new Error(`${by.variable} (${redacted(by.url)}) cannot be used for ${what}: ${reason}`, { cause: error });
      }
      if (Date.now() >= deadline) {
        throw new Error(`${what} could not be reached within ${config.connectTimeoutSeconds} s (${by.variable}): ${oneLine(error.message)}`, { cause: error });
      }
      log(`waiting for ${what} (attempt ${attempt}): ${oneLine(error.message)}`);
      await sleep(Math.min(5000, 250 * 2 ** attempt));
    }
  }
}

export async function openEventStore(config: Config): Promise<EventStore> {
  if (!config.eventStoreUrl) return new SqliteEventStore(join(config.dataDir, 'events.db'), { synchronous: config.sqliteSynchronous });
  const url = config.eventStoreUrl;
  // The scaled-out clients are loaded only by the processes that use them.
  const { EventStoreDbEventStore } = await import('../adapters/eventstoredb/event-store.ts');
  return connectWithBackoff(`the event store (EventStoreDB at ${redacted(url)})`, config, () => EventStoreDbEventStore.connect(url),
    { variable: 'BERTH_EVENTSTORE_URL', url });
}

export async function openReadStore(config: Config): Promise<ReadStore> {
  if (!config.mongoUrl) {
    // Its cache is safe only while this process is the one that writes the read models.
    const cache = config.roles.includes('projections') && !isScaledOut(config);
    return new SqliteReadStore(join(config.dataDir, 'read-models.db'), { cache });
  }
  const url = config.mongoUrl;
  const { MongoReadStore, namesNoDatabase } = await import('../adapters/mongodb/read-store.ts');
  // Berth's read models would otherwise land in the driver's default database, beside anything else there.
  if (namesNoDatabase(url)) throw new Error(`BERTH_MONGO_URL (${redacted(url)}) names no database: give it as mongodb://host:port/<database>`);
  return connectWithBackoff(`the read store (MongoDB at ${redacted(url)})`, config, () => MongoReadStore.connect(url),
    { variable: 'BERTH_MONGO_URL', url });
}

/** A connection string as it may be logged: without its password. */
const redacted = (url: string) => url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
