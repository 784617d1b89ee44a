// Start and stop of an application never deployed, on the real engine: a 409 that says so, as a
// database's does, not the engine's "service … not found"; the status stays idle.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startBerthWithReactors, type TestBerth } from '../support/berth.ts';

describe('actions on an application never deployed', () => {
  let berth: TestBerth;
  before(async () => { berth = await startBerthWithReactors({ config: { actionWaitMs: 30_000 } }); });
  after(() => berth.stop());

  it('answers start and stop with 409 saying it is not deployed, and leaves it idle', async () => {
    const { projectId } = await berth.ok('project.create', { name: 'never deployed' });
    const { applicationId, appName } = await berth.ok('application.create', { name: 'never', projectId });
    for (const action of ['start', 'stop']) {
      const answer = await berth.call(`application.${action}`, { applicationId });
      assert.equal(answer.status, 409, JSON.stringify(answer.body));
      assert.equal(answer.body.message, `applicationId names ${appName}, which could not ${action}: ${appName} is not deployed`);
    }
    assert.equal((await berth.ok('application.one', { applicationId })).applicationStatus, 'idle');
  });
});
