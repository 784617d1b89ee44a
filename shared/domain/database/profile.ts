// How each database kind runs: the environment contract of its official image, where it keeps
// its data, its port, how to tell it is ready, how to dump and restore one database, and the
// file extension of a dump. The API keeps the neutral kind names; a profile says the rest.
// Commands read passwords from the task's own environment (`sh -c`), so no secret ever appears
// in a command line Berth builds, logs or records.
import { DEFAULT_IMAGES, type Engine } from '../../contract/databases.ts';
import { overridden, type ProfileOverrides } from './profile-override.ts';

/** A database's credentials, opened: what its environment is made of. */
export interface OpenCredentials {
  readonly databaseName?: string;
  readonly databaseUser?: string;
  readonly databasePassword?: string;
  readonly databaseRootPassword?: string;
}

export interface EngineProfile {
  readonly image: string;
  readonly internalPort: number;
  /** Where the `<appName>-data` volume is mounted. */
  readonly dataPath: string;
  /** The environment the official image reads. */
  environment(credentials: OpenCredentials): Record<string, string>;
  /** The server's arguments, when the image's default is not enough (the key-value password). */
  readonly args: readonly string[] | null;
  /**
   * What the contract adds to a user's `command`, which replaces `args`: the key-value server takes
   * its password as an argument, which a command of the user's would otherwise drop (it would run
   * with none, open on its external port).
   */
  commandArgs?(credentials: OpenCredentials): readonly string[];
  /** Exits 0 once the engine accepts connections on its port. */
  readonly ready: readonly string[];
  /** Writes a dump of `database` to standard output. */
  dump(database: string): string[];
  /** Reads a dump from standard input into `database`, replacing what it holds. */
  restore(database: string): string[];
  /** The dump's extension, before `.gz`. */
  readonly extension: string;
}

/**
 * A script with its arguments as the shell's positional parameters, never spliced into its text. A
 * database name is given after `--` where the tool takes it as an operand: one that starts with a
 * dash would otherwise be read as an option (measured: `mariadb-dump "--version"` prints its version).
 */
const shell = (script: string, ...args: string[]) => ['sh', '-c', script, 'berth', ...args];

/** A restore's refusal of a dump that is not whole, before it touched the database. */
const INCOMPLETE = 'the dump is cut short or damaged, and nothing was restored';

const relational = (vars: 'MARIADB' | 'MYSQL', client: string, dumper: string): Omit<EngineProfile, 'image'> => ({
  internalPort: 3306,
  dataPath: '/var/lib/mysql',
  environment: (c) => ({
    [`${vars}_DATABASE`]: c.databaseName ?? '', [`${vars}_USER`]: c.databaseUser ?? '',
    [`${vars}_PASSWORD`]: c.databasePassword ?? '', [`${vars}_ROOT_PASSWORD`]: c.databaseRootPassword ?? '',
  }),
  args: null,
  ready: shell(`MYSQL_PWD="$${vars}_ROOT_PASSWORD" exec ${client} -h127.0.0.1 -uroot -e 'SELECT 1'`),
  dump: (database) => shell(`MYSQL_PWD="$${vars}_ROOT_PASSWORD" exec ${dumper} -uroot --single-transaction --routines --triggers -- "$1"`, database),
  // Staged whole first: the client commits as it reads, so a dump cut short (Berth stopped, the
  // bucket's stream broken) would leave tables dropped and half filled. The dump tool's last line
  // says the dump is whole.
  restore: (database) => shell('t=$(mktemp) || exit 1; trap \'rm -f "$t"\' EXIT; cat > "$t" || exit 1;'
    + ` tail -n 1 "$t" | grep -q '^-- Dump completed' || { echo "${INCOMPLETE}: it lacks the dump tool's last line" >&2; exit 1; };`
    + ` MYSQL_PWD="$${vars}_ROOT_PASSWORD" ${client} -uroot -- "$1" < "$t"`, database),
  extension: 'sql',
});

export const ENGINE_PROFILES: Record<Engine, Omit<EngineProfile, 'image'>> = {
  dbalpha: relational('MARIADB', 'mariadb', 'mariadb-dump'),
  dbbeta: relational('MYSQL', 'mysql', 'mysqldump'),
  dbgamma: {
    internalPort: 5432,
    dataPath: '/var/lib/postgresql/data',
    environment: (c) => ({ POSTGRES_DB: c.databaseName ?? '', POSTGRES_USER: c.databaseUser ?? '', POSTGRES_PASSWORD: c.databasePassword ?? '' }),
    args: null,
    // Over TCP: the official image's first-start server listens on its socket only.
    ready: shell('exec pg_isready -q -h 127.0.0.1 -U "$POSTGRES_USER" -d "$POSTGRES_DB"'),
    dump: (database) => shell('exec pg_dump -U "$POSTGRES_USER" --format=custom --no-owner --no-acl -- "$1"', database),
    // One transaction: a dump cut short (Berth stopped, the bucket's stream broken) changes nothing.
    restore: (database) => shell('exec pg_restore -U "$POSTGRES_USER" --clean --if-exists --no-owner --no-acl --exit-on-error --single-transaction -d "$1"', database),
    extension: 'dump',
  },
  dbdelta: {
    internalPort: 27017,
    dataPath: '/data/db',
    environment: (c) => ({ MONGO_INITDB_ROOT_USERNAME: c.databaseUser ?? '', MONGO_INITDB_ROOT_PASSWORD: c.databasePassword ?? '' }),
    args: null,
    ready: shell(`exec mongosh --quiet --eval 'db.adminCommand("ping").ok' -u "$MONGO_INITDB_ROOT_USERNAME" -p "$MONGO_INITDB_ROOT_PASSWORD"`),
    dump: (database) => shell('exec mongodump --quiet --archive -u "$MONGO_INITDB_ROOT_USERNAME" -p "$MONGO_INITDB_ROOT_PASSWORD" --authenticationDatabase admin --db "$1"', database),
    restore: (database) => shell('exec mongorestore --quiet --archive --drop -u "$MONGO_INITDB_ROOT_USERNAME" -p "$MONGO_INITDB_ROOT_PASSWORD" --authenticationDatabase admin --nsInclude "$1.*"', database),
    extension: 'archive',
  },
  dbepsilon: {
    internalPort: 6379,
    dataPath: '/data',
    environment: (c) => ({ REDIS_PASSWORD: c.databasePassword ?? '' }),
    // The official image takes no password variable: the server is started with it. Debug
    // commands from inside the task only, for the restore's reload.
    args: shell('exec redis-server --dir /data --appendonly yes --requirepass "$REDIS_PASSWORD" --enable-debug-command local'),
    commandArgs: (c) => ['--requirepass', c.databasePassword ?? ''],
    ready: shell('REDISCLI_AUTH="$REDIS_PASSWORD" redis-cli -h 127.0.0.1 ping | grep -q PONG'),
    // A snapshot of the whole keyspace (one database per server): the `database` is not used.
    dump: () => shell('f=$(mktemp) && REDISCLI_AUTH="$REDIS_PASSWORD" redis-cli --rdb "$f" >/dev/null && cat "$f"; s=$?; rm -f "$f"; exit $s'),
    // The snapshot becomes the server's own snapshot file and is loaded in place of the keyspace
    // (the file name is a protected setting); the append-only file is then rewritten from it. It is
    // checked whole first: a snapshot cut short would empty the keyspace the reload replaces.
    restore: () => shell('export REDISCLI_AUTH="$REDIS_PASSWORD" && d=$(redis-cli CONFIG GET dir | tail -1)'
      + ' && f=$(redis-cli CONFIG GET dbfilename | tail -1) && t="$d/berth-restore.rdb" && cat > "$t"'
      + ' && { command -v redis-check-rdb >/dev/null || { rm -f "$t"; echo "the image has no redis-check-rdb, which checks a snapshot whole before it replaces the keyspace: nothing was restored" >&2; exit 1; }; }'
      + ` && { redis-check-rdb "$t" >/dev/null 2>&1 || { rm -f "$t"; echo "${INCOMPLETE}: redis-check-rdb refuses it" >&2; exit 1; }; }`
      + ' && mv "$t" "$d/$f" && r=$(redis-cli DEBUG RELOAD NOSAVE)'
      + ' && [ "$r" = OK ] && redis-cli BGREWRITEAOF >/dev/null || { echo "reload: $r" >&2; exit 1; }'),
    extension: 'rdb',
  },
};

/**
 * The profile of a kind, as the operator configured it (BERTH_DATABASE_PROFILES), with its image:
 * the record's `containerImage`, unless that is the kind's neutral default name, which runs the
 * configured image when there is one.
 */
export function profileOf(engine: Engine, containerImage: string | null | undefined, overrides: ProfileOverrides = {}): EngineProfile {
  const override = overrides[engine];
  const neutral = !containerImage || containerImage === DEFAULT_IMAGES[engine];
  const image = neutral ? override?.image ?? DEFAULT_IMAGES[engine] : containerImage;
  return overridden({ ...ENGINE_PROFILES[engine], image }, override);
}
