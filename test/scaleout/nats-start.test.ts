// A role that needs NATS, started while NATS cannot be reached (it may be starting beside it, or
// restarting): it says it waits and keeps waiting, instead of exiting, and works once NATS is up.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { NatsBus } from '@berth/shared/adapters/bus/nats-bus';
import { SqliteEventStore } from '@berth/shared/adapters/sqlite/event-store';
import { newId } from '@berth/shared/ids';
import { startNats } from '../support/nats.ts';
import { eventually, startRole } from '../support/role-process.ts';

test('a relay started while NATS is down waits for it, then publishes the log once it is up', async () => {
  const nats = await startNats();
  await nats.down();
  const dataDir = mkdtempSync(join(tmpdir(), 'berth-nats-start-'));
  const relay = startRole('relay', { BERTH_DATA_DIR: dataDir, BERTH_NATS_URL: nats.url });
  let bus: NatsBus | null = null;
  try {
    await eventually(async () => relay.output.join('').includes('waiting for the bus (NATS)'), 60_000, 'the relay to say it waits for NATS');
    // Still there a while later, trying again.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    assert.equal(relay.child.exitCode, null, relay.output.join(''));

    await nats.up();
    const log = new SqliteEventStore(join(dataDir, 'events.db'));
    const projectId = newId();
    await log.append(`project-${projectId}`, [{
      id: newId(), type: 'ProjectCreated', data: { projectId, name: 'after the outage', description: null, createdAt: new Date().toISOString() },
      metadata: { actorId: null, correlationId: newId(), causationId: null, occurredAt: new Date().toISOString(), schemaVersion: 1 },
    }], 'no_stream');
    await log.close();
    bus = await NatsBus.connect(nats.url);
    const seen: string[] = [];
    await bus.consume('nats-start-test', async ({ event }) => { seen.push(event.stream); });
    await eventually(async () => seen.includes(`project-${projectId}`), 60_000, 'the event to be published on NATS');
  } finally {
    await bus?.close();
    relay.child.kill('SIGTERM');
    await relay.exited;
    await nats.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
