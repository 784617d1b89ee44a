// Runtime settings that are saved but could never deploy are refused when saved, with a 400 naming
// the field and nothing appended: health-check durations under the engine's 1 ms, a health-check
// Test the engine cannot run, a placement constraint it cannot parse, an empty label key or network
// name, a reservation above its limit, and start-first updates of a service publishing host ports.
// Settings the engine takes are still saved.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startBerth, type TestBerth } from '../support/berth.ts';

const MS = 1_000_000;
const MIB = 1024 * 1024;

describe('runtime settings that could never deploy are refused on save', () => {
  let berth: TestBerth;
  let projectId: string;
  before(async () => {
    berth = await startBerth({ config: { publishMode: 'host' } });
    ({ projectId } = await berth.ok('project.create', { name: 'on save' }));
  });
  after(() => berth.stop());

  const newApp = async () => (await berth.ok('application.create', { name: 'web', projectId })).applicationId as string;

  /** Refused with 400 naming `field`, the message matching `says`. */
  const refused = async (operation: string, input: Record<string, unknown>, field: string, says: RegExp) => {
    const body = await berth.refused(operation, input, 400, field);
    assert.match(body.message, says);
  };

  it('refuses a health-check Interval, Timeout or StartPeriod under 1 ms (other than 0), and keeps 0 and 1 ms', async () => {
    const applicationId = await newApp();
    for (const field of ['Interval', 'Timeout', 'StartPeriod']) {
      for (const value of [5, MS - 1]) {
        await refused('application.update', { applicationId, healthCheckOrch: { Test: ['CMD-SHELL', 'true'], [field]: value } },
          `healthCheckOrch.${field}`, /1000000/);
      }
    }
    const healthCheckOrch = { Test: ['CMD-SHELL', 'true'], Interval: MS, Timeout: 0, StartPeriod: MS };
    assert.deepEqual((await berth.ok('application.update', { applicationId, healthCheckOrch })).healthCheckOrch, healthCheckOrch);
  });

  it('keeps restart and update durations under 1 ms: the engine takes them', async () => {
    const applicationId = await newApp();
    const saved = await berth.ok('application.update', {
      applicationId, restartPolicyOrch: { Delay: 5, Window: 5 }, updateConfigOrch: { Delay: 5, Monitor: 5 }, rollbackConfigOrch: { Delay: 5, Monitor: 5 },
    });
    assert.deepEqual(saved.restartPolicyOrch, { Delay: 5, Window: 5 });
  });

  it('refuses a health-check Test that is not empty, NONE, CMD <command…> or CMD-SHELL <command>', async () => {
    const applicationId = await newApp();
    for (const Test of [['BOGUS', 'x'], ['CMD'], ['CMD-SHELL'], ['cmd', 'true'], ['']]) {
      await refused('application.update', { applicationId, healthCheckOrch: { Test } }, 'healthCheckOrch.Test', /NONE|CMD/);
    }
    for (const Test of [[], ['NONE'], ['CMD', 'true'], ['CMD', 'test', '-e', '/'], ['CMD-SHELL', 'true']]) {
      assert.deepEqual((await berth.ok('application.update', { applicationId, healthCheckOrch: { Test } })).healthCheckOrch, { Test });
    }
  });

  it('refuses a placement constraint that is not <attribute> == or != <value>, and keeps the ones the engine parses', async () => {
    const applicationId = await newApp();
    for (const constraint of ['bogus', 'node.role', 'a==b', 'node.role==', 'node.role==a@b', 'node.role === manager', 'node.role<manager']) {
      await refused('application.update', { applicationId, placementOrch: { Constraints: [constraint] } }, 'placementOrch.Constraints.0', /==|!=/);
    }
    const Constraints = ['node.role==manager', 'node.role != worker', 'node.labels.zone == eu west', 'engine.labels.x==y'];
    assert.deepEqual((await berth.ok('application.update', { applicationId, placementOrch: { Constraints } })).placementOrch, { Constraints });
  });

  it('refuses a label with an empty key and a network with an empty Target', async () => {
    const applicationId = await newApp();
    await refused('application.update', { applicationId, labelsOrch: { '': 'x' } }, 'labelsOrch', /empty/);
    await refused('application.update', { applicationId, networkOrch: [{ Target: '' }] }, 'networkOrch.0.Target', /empty/);
  });

  it('refuses a containerImage the engine could not parse, on saveContainerProvider and update, and keeps one it can', async () => {
    const applicationId = await newApp();
    for (const containerImage of ['Not A Valid:Image!', 'Berth/App:1', 'registry.local:port/app', 'app:-bad']) {
      await refused('application.saveContainerProvider', { applicationId, containerImage, username: null, password: null }, 'containerImage', /./);
      await refused('application.update', { applicationId, containerImage }, 'containerImage', /./);
    }
    const containerImage = 'registry.local:5000/team/app:1.2@sha256:' + 'a'.repeat(64);
    assert.equal((await berth.ok('application.saveContainerProvider', { applicationId, containerImage, username: null, password: null })).containerImage, containerImage);
  });

  it('refuses a reservation above its limit, judged on the record as it would become', async () => {
    const applicationId = await newApp();
    await refused('application.update', { applicationId, memoryReservation: 128 * MIB, memoryLimit: 64 * MIB }, 'memoryReservation', /memoryLimit/);
    await refused('application.update', { applicationId, cpuReservation: 2e9, cpuLimit: 1e9 }, 'cpuReservation', /cpuLimit/);
    await berth.ok('application.update', { applicationId, memoryLimit: 64 * MIB, cpuLimit: 1e9 });
    await refused('application.update', { applicationId, memoryReservation: 128 * MIB }, 'memoryReservation', /memoryLimit/);
    await refused('application.update', { applicationId, cpuReservation: 2e9 }, 'cpuReservation', /cpuLimit/);
    await berth.ok('application.update', { applicationId, memoryReservation: 64 * MIB, cpuReservation: 1e9 });
    // Lowering the limit under the reservation kept is refused too; 0 or null is no limit.
    await refused('application.update', { applicationId, memoryLimit: 32 * MIB }, 'memoryReservation', /memoryLimit/);
    await berth.ok('application.update', { applicationId, memoryLimit: 0, cpuLimit: null });
  });

  it('refuses a database reservation above its limit the same way', async () => {
    const { dbepsilonId } = await berth.ok('dbepsilon.create', { name: 'kv', appName: 'kv', projectId, databasePassword: 'On-Save-Pass-7' });
    await berth.ok('dbepsilon.update', { dbepsilonId, memoryLimit: 64 * MIB });
    await refused('dbepsilon.update', { dbepsilonId, memoryReservation: 128 * MIB }, 'memoryReservation', /memoryLimit/);
    await berth.ok('dbepsilon.update', { dbepsilonId, memoryReservation: 64 * MIB });
  });

  it('refuses start-first updates of an application publishing a host-mode port, whichever is saved second', async () => {
    const first = await newApp();
    await berth.ok('port.create', { applicationId: first, publishedPort: 47401, targetPort: 8080 });
    await refused('application.update', { applicationId: first, updateConfigOrch: { Order: 'start-first' } }, 'updateConfigOrch.Order', /host/);
    await berth.ok('application.update', { applicationId: first, updateConfigOrch: { Order: 'stop-first' } });

    const second = await newApp();
    await berth.ok('application.update', { applicationId: second, updateConfigOrch: { Parallelism: 1, Order: 'start-first' } });
    await refused('port.create', { applicationId: second, publishedPort: 47402, targetPort: 8080 }, 'publishedPort', /start-first/);
    const ports = await berth.ok('application.one', { applicationId: second });
    assert.deepEqual(ports.ports, []);
  });
});

describe('start-first with the routing mesh', () => {
  it('keeps start-first updates of an application whose ports the routing mesh publishes', async () => {
    const berth = await startBerth({ config: { publishMode: 'ingress' } });
    try {
      const { projectId } = await berth.ok('project.create', { name: 'mesh' });
      const { applicationId } = await berth.ok('application.create', { name: 'web', projectId });
      await berth.ok('port.create', { applicationId, publishedPort: 47403, targetPort: 8080 });
      await berth.ok('application.update', { applicationId, updateConfigOrch: { Order: 'start-first' } });
    } finally {
      await berth.stop();
    }
  });
});
