// A service Berth deployed (`done`) that an operator scales to 0 or removes behind Berth's back
// shows `error` in `.one` and `project.all`, from an event in its log; scaled back by the
// operator it shows `done` again; a deploy (or a start) of a removed one brings it back.
// For an application, a database and a stack (any of its services counts), on the real engine.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startBerthWithReactors, type TestBerth } from '../support/berth.ts';
import { deployed, deployedService, engineChanges, operator, removeDeployed, statusIs, type Kind } from './drift-services.ts';

describe('a service changed behind Berth\'s back shows it', { timeout: 240_000 }, () => {
  let berth: TestBerth;
  let projectId: string;
  const names: string[] = [];
  const stackNames: string[] = [];
  before(async () => {
    berth = await startBerthWithReactors({ config: { actionWaitMs: 60_000, taskStartTimeoutMs: 60_000 } });
    ({ projectId } = await berth.ok('project.create', { name: 'drift' }));
  });
  after(async () => {
    try {
      await removeDeployed(names, stackNames);
    } finally {
      await berth.stop();
    }
  });

  for (const kind of ['application', 'dbepsilon', 'compose'] as const satisfies readonly Kind[]) {
    it(`shows a ${kind} scaled to 0 as error, scaled back as done, removed as error, and a deploy brings it back`, async () => {
      const service = await deployedService(berth, kind, projectId, kind === 'compose' ? stackNames : names);

      await operator('scale', '--detach', `${service.engineName}=0`);
      await statusIs(berth, service, 'error');
      await operator('scale', '--detach', `${service.engineName}=1`);
      await statusIs(berth, service, 'done');
      await operator('rm', service.engineName);
      await statusIs(berth, service, 'error');
      const seen = await engineChanges(berth, service);
      assert.deepEqual(seen.map((change) => change.split(':')[1]), ['no-replicas', 'replicas', 'missing']);

      await deployed(berth, service);
      assert.equal((await engineChanges(berth, service)).length, 3, 'the deploy moved the status itself');
    });
  }

  it('brings a removed application back with start', async () => {
    const service = await deployedService(berth, 'application', projectId, names);
    await operator('rm', service.engineName);
    await statusIs(berth, service, 'error');
    assert.equal((await berth.ok('application.start', { applicationId: service.id })).applicationStatus, 'done');
    await statusIs(berth, service, 'done');
  });
});
