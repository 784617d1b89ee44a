import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { SqliteEventStore } from '@berth/shared/adapters/sqlite/event-store';
import { SqliteReadStore } from '@berth/shared/adapters/sqlite/read-store';
import type { AnyAggregate } from '@berth/shared/domain/aggregate';
import { deploymentAggregate, type DeploymentCommand } from '@berth/shared/domain/deployment/deployment';
import { execute } from '@berth/shared/runtime/execute';
import { recordsOf } from './deps.ts';

const dir = mkdtempSync(join(tmpdir(), 'berth-deployer-records-'));
const events = new SqliteEventStore(join(dir, 'events.db'));
const reads = new SqliteReadStore(join(dir, 'read.db'));
after(async () => { await events.close(); await reads.close(); });

const cause = { actorId: null, correlationId: 'test', causationId: null, occurredAt: '2026-11-26T00:00:00.000Z' };
const run = (command: DeploymentCommand) =>
  execute(events, deploymentAggregate as unknown as AnyAggregate, command.data.deploymentId, command, cause);

test("a pruned deployment is still known as its application's: the images it tagged are that application's to remove", async () => {
  const at = '2026-11-26T00:00:01.000Z';
  await run({ type: 'QueueDeployment', data: {
    deploymentId: 'dep1', applicationId: 'app1', composeId: null, kind: 'deploy', title: 'a deploy', trigger: 'account',
    accountId: null, image: null, rollbackOf: null, createdAt: at,
  } });
  await run({ type: 'StartDeployment', data: { deploymentId: 'dep1', at, statusBefore: 'idle' } });
  await run({ type: 'FinishDeployment', data: { deploymentId: 'dep1', at, image: 'berth/app:deploy-dep1', revision: null } });
  await run({ type: 'PruneDeployment', data: { deploymentId: 'dep1' } });
  const records = recordsOf(reads, events);
  assert.deepEqual(await records.deployment('dep1'), { applicationId: 'app1', composeId: null });
  assert.equal(await records.deployment('never-queued'), null);
});
