// Berth's own stop, start, deploy and removal scale to 0, remove and update the engine services
// too: done in the service's turn, the engine watch's checks come after them and never read them
// as changes behind Berth's back. A change made while Berth was stopped is seen at its next start.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startBerthWithReactors, type TestBerth } from '../support/berth.ts';
import { engine, eventually } from '../support/engine.ts';
import { deployed, deployedService, engineChanges, operator, removeDeployed, statusIs, type Deployed, type Kind } from './drift-services.ts';

const ROUNDS = 2;
const CONFIG = { actionWaitMs: 60_000, taskStartTimeoutMs: 60_000 };

describe('the engine watch and Berth\'s own actions', { timeout: 240_000 }, () => {
  let berth: TestBerth;
  let projectId: string;
  const names: string[] = [];
  const stackNames: string[] = [];
  before(async () => {
    berth = await startBerthWithReactors({ config: CONFIG });
    ({ projectId } = await berth.ok('project.create', { name: 'own' }));
  });
  after(async () => {
    try {
      await removeDeployed(names, stackNames);
    } finally {
      await berth.stop();
    }
  });

  /** Stops and brings the service back up as Berth does, `ROUNDS` times; a stack has no start: its deploy brings it up. */
  async function ownActions(service: Deployed): Promise<void> {
    const input = { [service.idField]: service.id };
    const status = service.kind === 'compose' ? 'composeStatus' : 'applicationStatus';
    for (let round = 0; round < ROUNDS; round++) {
      assert.equal((await berth.ok(`${service.kind}.stop`, input))[status], 'idle');
      if (service.kind !== 'compose') assert.equal((await berth.ok(`${service.kind}.start`, input))[status], 'done');
      await deployed(berth, service);
    }
  }

  it('never shows a change of Berth\'s own stop, start or deploy; the operator\'s, after them, is the only one', async () => {
    const kinds: Kind[] = ['application', 'dbepsilon', 'compose'];
    await Promise.all(kinds.map(async (kind) => {
      const service = await deployedService(berth, kind, projectId, kind === 'compose' ? stackNames : names);
      await ownActions(service);
      // Checked in order after Berth's own: once this one is recorded, every check before it was made.
      await operator('scale', '--detach', `${service.engineName}=0`);
      await statusIs(berth, service, 'error');
      assert.deepEqual((await engineChanges(berth, service)).map((change) => change.split(':')[1]), ['no-replicas']);
    }));
  });

  it('never shows a change of Berth\'s own removal', async () => {
    const removal = { application: 'delete', dbepsilon: 'remove', compose: 'delete' } as const;
    await Promise.all((['application', 'dbepsilon', 'compose'] as const).map(async (kind) => {
      const service = await deployedService(berth, kind, projectId, kind === 'compose' ? stackNames : names);
      await berth.ok(`${kind}.${removal[kind]}`, { [service.idField]: service.id });
      await eventually(`${kind} ${service.appName} gone from the engine`, async () => (await engine.inspectService(service.engineName)) === null, 60_000);
      // The watch's check of the removal runs in the service's turn, right after it: a moment is plenty.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      assert.deepEqual(await engineChanges(berth, service), []);
    }));
  });

  it('sees at its next start a service scaled to 0 while Berth was stopped', async () => {
    const service = await deployedService(berth, 'application', projectId, names);
    const { dataDir } = berth;
    await berth.stop({ keepData: true });
    await operator('scale', '--detach', `${service.engineName}=0`);
    berth = await startBerthWithReactors({ dataDir, config: CONFIG });
    await statusIs(berth, service, 'error');
    await operator('scale', '--detach', `${service.engineName}=1`);
    await statusIs(berth, service, 'done');
  });
});
