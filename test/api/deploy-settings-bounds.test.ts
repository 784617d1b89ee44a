// Resource limits and orchestrator settings the orchestrator could never take (a negative amount,
// a fraction of a count, a word it does not know, two modes at once) are refused when saved, with a
// 400 naming the field and nothing appended, instead of being kept and failing every deploy with
// the engine's own words. Values it takes are still saved as sent.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ENGINES } from '@berth/shared/contract/databases';
import { startBerth, type TestBerth } from '../support/berth.ts';
import { databaseCredentials } from '../support/databases.ts';

const RESOURCES = ['memoryReservation', 'memoryLimit', 'cpuReservation', 'cpuLimit'] as const;
const SECOND = 1_000_000_000;

/** Orchestrator settings the orchestrator refuses, each with the field a user must correct. */
const REFUSED_SETTINGS: Array<{ input: Record<string, unknown>; field: string; says: RegExp }> = [
  { input: { modeOrch: { Replicated: { Replicas: -3 } } }, field: 'modeOrch.Replicated.Replicas', says: /integer from 0 to/ },
  { input: { modeOrch: { Replicated: { Replicas: 1.5 } } }, field: 'modeOrch.Replicated.Replicas', says: /integer/ },
  { input: { modeOrch: { ReplicatedJob: { MaxConcurrent: -1 } } }, field: 'modeOrch.ReplicatedJob.MaxConcurrent', says: /from 0 to/ },
  { input: { modeOrch: { ReplicatedJob: { TotalCompletions: -1 } } }, field: 'modeOrch.ReplicatedJob.TotalCompletions', says: /from 0 to/ },
  { input: { modeOrch: { Replicated: { Replicas: 1 }, Global: {} } }, field: 'modeOrch', says: /only one of Replicated, Global/ },
  { input: { healthCheckOrch: { Test: ['CMD', 'true'], Interval: -1 } }, field: 'healthCheckOrch.Interval', says: /0 for its default, or an integer from 1000000 to/ },
  { input: { healthCheckOrch: { Timeout: -SECOND } }, field: 'healthCheckOrch.Timeout', says: /0 for its default, or an integer from 1000000 to/ },
  { input: { healthCheckOrch: { StartPeriod: 0.5 } }, field: 'healthCheckOrch.StartPeriod', says: /integer/ },
  { input: { healthCheckOrch: { Retries: -1 } }, field: 'healthCheckOrch.Retries', says: /from 0 to/ },
  { input: { restartPolicyOrch: { MaxAttempts: -1 } }, field: 'restartPolicyOrch.MaxAttempts', says: /from 0 to/ },
  { input: { restartPolicyOrch: { Delay: -1 } }, field: 'restartPolicyOrch.Delay', says: /from 0 to/ },
  { input: { restartPolicyOrch: { Window: -1 } }, field: 'restartPolicyOrch.Window', says: /from 0 to/ },
  { input: { restartPolicyOrch: { Condition: 'always' } }, field: 'restartPolicyOrch.Condition', says: /one of none, on-failure, any/ },
  { input: { placementOrch: { MaxReplicas: -2 } }, field: 'placementOrch.MaxReplicas', says: /from 0 to/ },
  { input: { updateConfigOrch: { Parallelism: -1 } }, field: 'updateConfigOrch.Parallelism', says: /from 0 to/ },
  { input: { updateConfigOrch: { Delay: 1e19 } }, field: 'updateConfigOrch.Delay', says: /from 0 to 9007199254740991/ },
  { input: { updateConfigOrch: { Delay: -1 } }, field: 'updateConfigOrch.Delay', says: /from 0 to/ },
  { input: { updateConfigOrch: { MaxFailureRatio: 2 } }, field: 'updateConfigOrch.MaxFailureRatio', says: /from 0 to 1/ },
  { input: { updateConfigOrch: { Order: 'whenever' } }, field: 'updateConfigOrch.Order', says: /stop-first, start-first/ },
  { input: { rollbackConfigOrch: { Monitor: -1 } }, field: 'rollbackConfigOrch.Monitor', says: /from 0 to/ },
  { input: { rollbackConfigOrch: { FailureAction: 'explode' } }, field: 'rollbackConfigOrch.FailureAction', says: /pause, continue, rollback/ },
  { input: { networkOrch: [{ Target: 'net', Aliases: [7] }] }, field: 'networkOrch.0.Aliases.0', says: /must be a string/ },
];

describe('deploy settings the orchestrator could never take are refused on save', () => {
  let berth: TestBerth;
  let projectId: string;
  let applicationId: string;
  before(async () => {
    berth = await startBerth();
    ({ projectId } = await berth.ok('project.create', { name: 'bounds' }));
    ({ applicationId } = await berth.ok('application.create', { name: 'web', projectId }));
  });
  after(() => berth.stop());

  /** Refused with 400, one issue at `field` whose message starts with the field; the record unchanged. */
  const refusedAt = async (operation: string, input: Record<string, unknown>, field: string, says: RegExp) => {
    const body = await berth.refused(operation, input, 400, field);
    assert.equal(body.code, 'BAD_REQUEST');
    assert.ok(body.issues[0].message.startsWith(`${field} must`), body.issues[0].message);
    assert.match(body.issues[0].message, says);
    assert.match(body.message, says);
  };

  it('refuses a resource the orchestrator would refuse (negative, too large, or below its least) on an application, naming the field', async () => {
    for (const field of RESOURCES) {
      for (const refused of [-5, 1e300, 0.5]) await refusedAt('application.update', { applicationId, [field]: refused }, field, /0 for none, or from \d+ to 9007199254740991 or null$/);
    }
    const kept = await berth.ok('application.one', { applicationId });
    for (const field of RESOURCES) assert.equal(kept[field], null);
  });

  for (const engine of ENGINES) {
    it(`refuses a resource the orchestrator would refuse (negative, too large, or below its least) on a ${engine} database, naming the field`, async () => {
      const idField = `${engine}Id`;
      const created = await berth.ok(`${engine}.create`, { name: 'store', appName: 'store', projectId, ...databaseCredentials(engine) });
      for (const field of RESOURCES) {
        for (const refused of [-5, 1e300, 0.5]) {
          await refusedAt(`${engine}.update`, { [idField]: created[idField], [field]: refused }, field, /0 for none, or from \d+ to 9007199254740991 or null$/);
        }
      }
      const kept = await berth.ok(`${engine}.one`, { [idField]: created[idField] });
      for (const field of RESOURCES) assert.equal(kept[field], null);
    });
  }

  it('refuses orchestrator settings the orchestrator refuses, naming the setting inside', async () => {
    for (const { input, field, says } of REFUSED_SETTINGS) {
      await refusedAt('application.update', { applicationId, ...input }, field, says);
    }
    const kept = await berth.ok('application.one', { applicationId });
    for (const field of ['modeOrch', 'healthCheckOrch', 'restartPolicyOrch', 'placementOrch', 'updateConfigOrch', 'rollbackConfigOrch', 'networkOrch']) {
      assert.equal(kept[field], null, field);
    }
  });

  it('still saves every setting the orchestrator takes, as sent', async () => {
    const update = { Parallelism: 1, Delay: SECOND, Monitor: 2 * SECOND, MaxFailureRatio: 0.5, FailureAction: 'rollback', Order: 'stop-first' };
    const settings = {
      memoryLimit: 64 * 1024 * 1024, memoryReservation: 0, cpuLimit: 1_500_000_000.5, cpuReservation: 100_000_000,
      healthCheckOrch: { Test: ['CMD-SHELL', 'true'], Interval: SECOND, Timeout: SECOND, StartPeriod: 0, Retries: 3 },
      restartPolicyOrch: { Condition: '', Delay: 0, MaxAttempts: 3, Window: 10 * SECOND },
      placementOrch: { Constraints: ['node.role==manager'], Preferences: [{ Spread: { SpreadDescriptor: 'node.id' } }], MaxReplicas: 2, Platforms: [{ Architecture: 'amd64', OS: 'linux' }] },
      updateConfigOrch: update,
      rollbackConfigOrch: { ...update, FailureAction: 'pause', Order: 'start-first' },
      modeOrch: { ReplicatedJob: { MaxConcurrent: 1, TotalCompletions: 0 } },
      labelsOrch: { 'com.example.tier': 'web' },
      networkOrch: [{ Target: 'net', Aliases: ['web'], DriverOpts: { mtu: '1400' } }],
    };
    const saved = await berth.ok('application.update', { applicationId, ...settings });
    for (const [field, value] of Object.entries(settings)) assert.deepEqual(saved[field], value, field);
    const cleared = await berth.ok('application.update', {
      applicationId, memoryLimit: null, modeOrch: {}, healthCheckOrch: null, restartPolicyOrch: { Condition: 'on-failure' },
    });
    assert.equal(cleared.memoryLimit, null);
    assert.deepEqual(cleared.modeOrch, {});
    assert.equal(cleared.healthCheckOrch, null);
  });

  it("refuses labels that Berth and the engine find services by, naming labelsOrch: an application could pass for another's service", async () => {
    for (const label of ['berth.composeId', 'berth.applicationId', 'com.docker.stack.namespace', 'com.docker.compose.project', 'com.docker.swarm.service.name']) {
      await berth.refused('application.update', { applicationId, labelsOrch: { tier: 'web', [label]: 'shop' } }, 400, 'labelsOrch');
    }
  });
});
