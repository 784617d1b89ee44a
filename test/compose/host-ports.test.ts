// A compose service deleted while its deployment fetched its file: the host ports that deploy
// claimed for it are let go with it, not held for good by a service that is gone.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { composeServices } from '@berth/reactors/compose/services';
import { reporter } from '@berth/reactors/runtime/report';
import { startBerth, type TestBerth } from '../support/berth.ts';
import { databaseCredentials } from '../support/databases.ts';

describe('host ports of a compose service deleted during its deploy', () => {
  let berth: TestBerth;
  before(async () => { berth = await startBerth(); });
  after(() => berth.stop());

  it('lets go of the ports the deploy claimed and fails the deployment, naming the deletion', async () => {
    const infra = berth.berth.infrastructure;
    const { projectId } = await berth.ok('project.create', { name: 'gone' });
    const { composeId } = await berth.ok('compose.create', { name: 'gone', projectId, composeType: 'stack' });
    const port = 20000 + Math.floor(Math.random() * 20000);
    const service = await composeServices(infra.eventStore, infra.secrets, async (work) => {
      // The service is deleted after the deployment read it, before the file's ports are recorded.
      await berth.ok('compose.delete', { composeId });
      await work.fileFetched({ services: ['web'], ports: [`${port}/tcp`] });
      return { image: 'never', revision: null };
    }, reporter(infra))(composeId, null);
    assert.ok(service);
    await assert.rejects(service.run({ deploymentId: 'd1', kind: 'deploy', image: null, log: () => {}, signal: new AbortController().signal }), /the service was deleted/);
    const { events } = await infra.eventStore.readStream(`reservation-hostPort:${port}/tcp`);
    assert.deepEqual(events.map((event) => event.type), ['NameReserved', 'NameReleased']);
    const { dbgammaId } = await berth.ok('dbgamma.create', { name: 'db', appName: 'db-gone', projectId, ...databaseCredentials('dbgamma') });
    await berth.ok('dbgamma.saveExternalPort', { dbgammaId, externalPort: port });
  });
});
