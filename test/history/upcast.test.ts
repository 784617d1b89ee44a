// An event stored before its shape changed: a log written with DeploymentQueued of schema
// version 1 (the whole queued record) is served by a Berth of today through the upcaster, in its
// read models and in the auditors' history, and new deployments are recorded in version 2.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { SqliteEventStore } from '@berth/shared/adapters/sqlite/event-store';
import { newDeployment, requestOf } from '@berth/shared/domain/deployment/record';
import { newId } from '@berth/shared/ids';
import { startBerth } from '../support/berth.ts';

describe('events stored in an older schema version', () => {
  it('shows a deployment queued in the old shape as the API always did, and says version 2 in the history', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'berth-upcast-'));
    const record = newDeployment({
      deploymentId: newId(), applicationId: newId(), composeId: null, kind: 'deploy', title: 'queued before the upgrade',
      trigger: 'webhook', accountId: null, image: null, rollbackOf: null, createdAt: '2026-01-01T00:00:00.000Z',
    });
    const old = new SqliteEventStore(join(dataDir, 'events.db'));
    await old.append(`deployment-${record.deploymentId}`, [{
      id: newId(), type: 'DeploymentQueued', data: record,
      metadata: { actorId: null, correlationId: 'before-upgrade', causationId: null, occurredAt: record.createdAt, schemaVersion: 1 },
    }], 'no_stream');
    await old.close();

    const berth = await startBerth({ dataDir });
    try {
      assert.deepEqual(await berth.ok('deployment.one', { deploymentId: record.deploymentId }), record);
      const { events } = await berth.ok('events.stream', { stream: `deployment-${record.deploymentId}` });
      assert.equal(events[0].metadata.schemaVersion, 2);
      assert.deepEqual(events[0].data, requestOf(record));
    } finally {
      await berth.stop();
    }
  });
});
