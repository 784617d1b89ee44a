// The host ports a compose service's deploy claims, settled by how the deploy ended: up, the file's
// ports are the service's; failed, the previous version's stay its own (a stack rolls back to
// them) and the ones claimed for the file go; deleted meanwhile, every one goes.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { composeServices } from '@berth/reactors/compose/services';
import type { RunComposeDeployment } from '@berth/reactors/compose/work';
import { reporter } from '@berth/reactors/runtime/report';
import { startBerth, type TestBerth } from '../support/berth.ts';
import { databaseCredentials } from '../support/databases.ts';

describe('host ports a compose deploy claims', () => {
  let berth: TestBerth;
  let projectId: string;
  let nextPort = 20000 + Math.floor(Math.random() * 20000);
  before(async () => {
    berth = await startBerth();
    ({ projectId } = await berth.ok('project.create', { name: 'ports' }));
  });
  after(() => berth.stop());

  /** Runs one deployment of the compose service with `run` in place of the engine work. */
  async function deploy(composeId: string, run: RunComposeDeployment) {
    const infra = berth.berth.infrastructure;
    const service = await composeServices(infra.eventStore, infra.secrets, run, reporter(infra))(composeId, null);
    assert.ok(service);
    return service.run({ deploymentId: 'd1', kind: 'deploy', image: null, log: () => {}, signal: new AbortController().signal });
  }
  const compose = async () => (await berth.ok('compose.create', { name: 'c', projectId, composeType: 'stack' })).composeId as string;
  const database = async () => (await berth.ok('dbgamma.create', { name: 'db', appName: `db-${nextPort}`, projectId, ...databaseCredentials('dbgamma') })).dbgammaId as string;
  const databaseTakes = async (externalPort: number) => berth.ok('dbgamma.saveExternalPort', { dbgammaId: await database(), externalPort });
  const databaseIsRefused = async (externalPort: number) =>
    berth.refused('dbgamma.saveExternalPort', { dbgammaId: await database(), externalPort }, 409, 'externalPort');

  it('keeps the previous version\'s ports when a deploy fails, and lets go of the ones claimed for it', async () => {
    const [first, second] = [nextPort++, nextPort++];
    const composeId = await compose();
    await deploy(composeId, async (work) => {
      await (await work.fileFetched({ services: ['web'], ports: [`${first}/tcp`] }))(true);
      return { image: 'one', revision: null };
    });
    await assert.rejects(deploy(composeId, async (work) => {
      const settle = await work.fileFetched({ services: ['web'], ports: [`${second}/tcp`] });
      await settle(false);
      throw new Error('the rollout failed');
    }), /the rollout failed/);
    await databaseIsRefused(first);
    await databaseTakes(second);
    assert.deepEqual((await berth.berth.infrastructure.eventStore.readStream(`compose-${composeId}`)).events
      .filter((event) => event.type === 'ComposeFileFetched').map((event) => (event.data as { ports: string[] }).ports), [[`${first}/tcp`]]);
  });

  it('lets go of every port when the service is deleted during its deploy, and fails the deployment naming the deletion', async () => {
    const port = nextPort++;
    const composeId = await compose();
    await assert.rejects(deploy(composeId, async (work) => {
      const settle = await work.fileFetched({ services: ['web'], ports: [`${port}/tcp`] });
      // Deleted after the deployment read it, before the file's ports are recorded.
      await berth.ok('compose.delete', { composeId });
      await settle(true);
      return { image: 'never', revision: null };
    }), /the service was deleted/);
    const { events } = await berth.berth.infrastructure.eventStore.readStream(`reservation-hostPort:${port}/tcp`);
    assert.deepEqual(events.map((event) => event.type), ['NameReserved', 'NameReleased']);
    await databaseTakes(port);
  });
});
