// Every process on one log must share the instance key: one with another key stops at start-up,
// saying so, before it seals a secret the others could never open.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { SqliteEventStore } from '@berth/shared/adapters/sqlite/event-store';
import { EventStoreDbEventStore } from '@berth/shared/adapters/eventstoredb/event-store';
import { newId } from '@berth/shared/ids';
import type { EventStore } from '@berth/shared/ports/event-store';
import { configFrom } from '@berth/shared/runtime/config';
import { openInfrastructure } from '@berth/shared/runtime/infrastructure';
import { KEY_CHECK_STREAM } from '@berth/shared/runtime/key-check';
import { secretBoxOf } from '@berth/shared/runtime/keys';
import { EventStoreDbTestServer } from '../support/eventstoredb-server.ts';
import { startRole, type RoleProcess } from '../support/role-process.ts';

const dirs: string[] = [];
const servers: EventStoreDbTestServer[] = [];
after(async () => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  for (const server of servers) await server.stop();
});
const folder = () => {
  const dir = mkdtempSync(join(tmpdir(), 'berth-keycheck-'));
  dirs.push(dir);
  return dir;
};
const key = () => randomBytes(32).toString('base64');
const LINE = /^berth projections could not start: BERTH_INSTANCE_KEY is not the key the event log was written with/m;

/** Opens and closes the infrastructure as a process's start would. */
const open = async (env: Record<string, string>) => (await openInfrastructure(configFrom(env, { roles: ['projections'] }))).close();

/** The exit code of a process that should stop at start-up; one still running after 60 s is killed and fails the test. */
async function exitCode(role: RoleProcess): Promise<number | null> {
  const timer = setTimeout(() => role.child.kill('SIGKILL'), 60_000);
  try {
    return await role.exited;
  } finally {
    clearTimeout(timer);
  }
}

const sqliteHead = async (dataDir: string) => {
  const store = new SqliteEventStore(join(dataDir, 'events.db'));
  try {
    return await store.head();
  } finally {
    await store.close();
  }
};

describe('the instance key is checked against the log at start-up', () => {
  it('embedded: a second process on the same log with another key exits 1 with one line naming BERTH_INSTANCE_KEY and appends nothing', async () => {
    const dataDir = folder();
    await open({ BERTH_DATA_DIR: dataDir, BERTH_INSTANCE_KEY: key() });
    const head = await sqliteHead(dataDir);
    const other = startRole('projections', { BERTH_DATA_DIR: dataDir, BERTH_INSTANCE_KEY: key() });
    assert.equal(await exitCode(other), 1, other.output.join(''));
    const output = other.output.join('');
    assert.match(output, LINE);
    assert.equal(output.trim().split('\n').length, 1, output);
    assert.equal(await sqliteHead(dataDir), head, 'nothing appended');
  });

  it('embedded: a process without BERTH_INSTANCE_KEY, with its own instance.key, is refused on a log written with another key', async () => {
    const dataDir = folder();
    await open({ BERTH_DATA_DIR: dataDir, BERTH_INSTANCE_KEY: key() });
    await assert.rejects(open({ BERTH_DATA_DIR: dataDir }), /BERTH_INSTANCE_KEY is not the key the event log was written with/);
  });

  it('embedded: the same key starts again, and a log written before the check (none in it) is given one by its first start', async () => {
    const dataDir = folder();
    const instanceKey = key();
    const earlier = new SqliteEventStore(join(dataDir, 'events.db'));
    await earlier.append(`project-${newId()}`, [{
      id: newId(), type: 'ProjectCreated', data: {},
      metadata: { actorId: null, correlationId: newId(), causationId: null, occurredAt: new Date().toISOString(), schemaVersion: 1 },
    }], 'no_stream');
    await earlier.close();
    await open({ BERTH_DATA_DIR: dataDir, BERTH_INSTANCE_KEY: instanceKey });
    const store = new SqliteEventStore(join(dataDir, 'events.db'));
    try {
      assert.notEqual(await store.readKeyCheck(), null, 'the first start wrote the check');
      assert.equal(await store.head(), 1, 'beside the events: the history and its positions are the events\' alone');
    } finally {
      await store.close();
    }
    await open({ BERTH_DATA_DIR: dataDir, BERTH_INSTANCE_KEY: instanceKey });
    await assert.rejects(open({ BERTH_DATA_DIR: dataDir, BERTH_INSTANCE_KEY: key() }), /BERTH_INSTANCE_KEY/);
  });

  it('embedded: a log written before the check, holding a secret, is given no check by another key: that start is refused, the right key\'s is not', async () => {
    const dataDir = folder();
    const instanceKey = key();
    const earlier = new SqliteEventStore(join(dataDir, 'events.db'));
    await earlier.append(`registry-${newId()}`, [{
      id: newId(), type: 'RegistryCreated', data: { password: secretBoxOf(Buffer.from(instanceKey, 'base64')).seal('hunter2') },
      metadata: { actorId: null, correlationId: newId(), causationId: null, occurredAt: new Date().toISOString(), schemaVersion: 1 },
    }], 'no_stream');
    await earlier.close();
    await assert.rejects(open({ BERTH_DATA_DIR: dataDir, BERTH_INSTANCE_KEY: key() }), /BERTH_INSTANCE_KEY is not the key the event log was written with/);
    const store = new SqliteEventStore(join(dataDir, 'events.db'));
    try {
      assert.equal(await store.readKeyCheck(), null, 'the refused start wrote no check');
    } finally {
      await store.close();
    }
    await open({ BERTH_DATA_DIR: dataDir, BERTH_INSTANCE_KEY: instanceKey });
    await assert.rejects(open({ BERTH_DATA_DIR: dataDir, BERTH_INSTANCE_KEY: key() }), /BERTH_INSTANCE_KEY/);
  });

  it('EventStoreDB: processes with their own data folders share the log; another key is refused and appends nothing, the same key works', async () => {
    const server = await new EventStoreDbTestServer().start();
    servers.push(server);
    const instanceKey = key();
    const on = (dataDir: string, extra: Record<string, string> = {}) =>
      ({ BERTH_DATA_DIR: dataDir, BERTH_EVENTSTORE_URL: server.url, BERTH_CONNECT_TIMEOUT_SECONDS: '5', ...extra });
    // A log written before the check existed, then two first processes at once: one writes the check, the other agrees.
    const earlier = await EventStoreDbEventStore.connect(server.url);
    await earlier.append(`project-${newId()}`, [{
      id: newId(), type: 'ProjectCreated', data: {},
      metadata: { actorId: null, correlationId: newId(), causationId: null, occurredAt: new Date().toISOString(), schemaVersion: 1 },
    }], 'no_stream');
    await earlier.close();
    await Promise.all([open(on(folder(), { BERTH_INSTANCE_KEY: instanceKey })), open(on(folder(), { BERTH_INSTANCE_KEY: instanceKey }))]);
    const store: EventStore = await EventStoreDbEventStore.connect(server.url);
    try {
      const head = await store.head();
      const other = startRole('projections', on(folder(), { BERTH_INSTANCE_KEY: key() }));
      assert.equal(await exitCode(other), 1, other.output.join(''));
      assert.match(other.output.join(''), LINE);
      await assert.rejects(open(on(folder())), /BERTH_INSTANCE_KEY/, 'a data folder\'s own instance.key is another key');
      assert.equal(await store.head(), head, 'nothing appended');
      assert.equal((await store.readStream(KEY_CHECK_STREAM)).events.length, 1);
      await open(on(folder(), { BERTH_INSTANCE_KEY: instanceKey }));
    } finally {
      await store.close();
    }
  });
});
