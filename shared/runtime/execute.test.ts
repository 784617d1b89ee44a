import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { SqliteEventStore } from '../adapters/sqlite/event-store.ts';
import type { Aggregate, AnyAggregate } from '../domain/aggregate.ts';
import { DomainError } from '../errors.ts';
import { execute, executeAt, load } from './execute.ts';

interface Thing { thingId: string; name: string; status: string }
type ThingCommand =
  | { type: 'Create'; data: Thing }
  | { type: 'Rename'; data: { thingId: string; name: string } }
  | { type: 'SetStatus'; data: { thingId: string; status: string } };
type ThingEvent =
  | { type: 'Created'; data: Thing }
  | { type: 'Renamed'; data: { thingId: string; name: string } }
  | { type: 'StatusSet'; data: { thingId: string; status: string } };

// A service-like record whose status work under way moves on by itself.
const thingAggregate: Aggregate<Thing, ThingCommand, ThingEvent> = {
  name: 'thing', idField: 'thingId', label: 'Thing', volatile: ['status'],
  evolve: (state, event) => {
    switch (event.type) {
      case 'Created': return event.data;
      case 'Renamed': return state && { ...state, name: event.data.name };
      case 'StatusSet': return state && { ...state, status: event.data.status };
    }
  },
  decide: (command) => {
    switch (command.type) {
      case 'Create': return [{ type: 'Created', data: command.data }];
      case 'Rename': return [{ type: 'Renamed', data: command.data }];
      case 'SetStatus': return [{ type: 'StatusSet', data: command.data }];
    }
  },
};
const aggregate = thingAggregate as unknown as AnyAggregate;
const cause = { actorId: 'usr_test', occurredAt: '2026-11-26T00:00:00.000Z', correlationId: 'c', causationId: 'c' };

const stores: SqliteEventStore[] = [];
after(() => Promise.all(stores.map((store) => store.close())));

async function thingRead() {
  const store = new SqliteEventStore(join(mkdtempSync(join(tmpdir(), 'berth-execute-')), 'events.db'));
  stores.push(store);
  await execute(store, aggregate, 't1', { type: 'Create', data: { thingId: 't1', name: 'first', status: 'idle' } }, cause);
  return { store, held: await load(store, aggregate, 't1') };
}

test('a change read before a status change applies over it, keeping the new status', async () => {
  const { store, held } = await thingRead();
  await execute(store, aggregate, 't1', { type: 'SetStatus', data: { thingId: 't1', status: 'running' } }, cause);
  await executeAt(store, aggregate, 't1', { type: 'Rename', data: { thingId: 't1', name: 'second' } }, cause, held);
  assert.deepEqual((await load(store, aggregate, 't1')).state, { thingId: 't1', name: 'second', status: 'running' });
});

test('a change read before another writer changed the record is refused, naming its id field, and appends nothing', async () => {
  const { store, held } = await thingRead();
  await execute(store, aggregate, 't1', { type: 'Rename', data: { thingId: 't1', name: 'by another' } }, cause);
  const before = await load(store, aggregate, 't1');
  await assert.rejects(
    executeAt(store, aggregate, 't1', { type: 'Rename', data: { thingId: 't1', name: 'second' } }, cause, held),
    (error: unknown) => error instanceof DomainError && error.code === 'CONFLICT' && error.issues[0]?.path === 'thingId',
  );
  assert.equal((await load(store, aggregate, 't1')).revision, before.revision);
});
