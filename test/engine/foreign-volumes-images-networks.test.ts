// Engine objects Berth finds by a name its user chooses, beside the services themselves: a
// database's `<appName>-data` volume, the images of an application's `berth/<appName>` repository,
// and a stack's `<appName>_default` network. An operator's object of that name survives a deploy
// (which fails naming it, where the deploy would have used it) and the service's removal; Berth's
// own objects, which carry the service's mark, still come and go with the service.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sourcesDirOf } from '@berth/shared/domain/compose/project-name';
import { startBerthWithReactors, type TestBerth } from '../support/berth.ts';
import { TEST_IMAGE, engine, eventually, removeDeployed, uniqueName } from '../support/engine.ts';
import { deploymentRecordsOf, ended } from '../support/deployments.ts';
import { DATABASE_IMAGE } from '../support/database-services.ts';
import { GOOD_CONTAINERFILE, gitRepo } from '../support/git-repo.ts';
import { removeStacks } from '../support/stacks.ts';

const docker = (...args: string[]) => execFileSync('docker', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
const quietly = (...args: string[]) => { try { docker(...args); } catch { /* already gone */ } };
/** The object's id and labels, or null when the engine has none of that name. */
const inspected = (kind: 'volume' | 'network' | 'image', name: string, format: string): string | null => {
  try { return docker(kind, 'inspect', name, '--format', format); } catch { return null; }
};
const volumeState = (name: string) => inspected('volume', name, '{{.CreatedAt}} {{json .Labels}}');
const networkState = (name: string) => inspected('network', name, '{{.Id}} {{json .Labels}}');
const FILE = `services:\n  web:\n    image: ${TEST_IMAGE}\n`;

describe('volumes, images and networks Berth did not make, named like a service\'s', () => {
  let berth: TestBerth;
  let projectId: string;
  const repo = gitRepo();
  const names = {
    legacy: '', db: uniqueName('op-vol'), ownDb: uniqueName('own-vol'), app: uniqueName('op-img'), stack: uniqueName('op-net'), ownStack: uniqueName('own-net'),
    kept: uniqueName('kept-vol'),
  };
  const opVolume = `${names.db}-data`;
  const opImage = `berth/${names.app}:operator`;
  const opNetwork = `${names.stack}_default`;

  before(async () => {
    docker('volume', 'create', opVolume);
    docker('tag', TEST_IMAGE, opImage);
    docker('network', 'create', '--driver', 'overlay', '--attachable', opNetwork);
    repo.commit({ 'Containerfile': GOOD_CONTAINERFILE, 'index.html': 'own\n' });
    berth = await startBerthWithReactors({ config: { actionWaitMs: 60_000, taskStartTimeoutMs: 20_000 }, env: { BERTH_REMOVE_DATABASE_VOLUMES: 'on' } });
    ({ projectId } = await berth.ok('project.create', { name: 'foreign objects' }));
  });

  after(async () => {
    await berth?.stop();
    for (const name of [names.db, names.ownDb, names.legacy]) if (name) quietly('service', 'rm', name);
    await removeDeployed([names.app]);
    await removeStacks([names.stack, names.ownStack, names.kept]);
    await eventually('the test volumes to be free', async () => {
      try {
        for (const name of [opVolume, `${names.ownDb}-data`, `${names.legacy}-data`, `${names.kept}_data`]) quietly('volume', 'rm', name);
        return volumeState(opVolume) === null && volumeState(`${names.kept}_data`) === null;
      } catch { return false; }
    });
    quietly('image', 'rm', opImage);
    quietly('network', 'rm', opNetwork);
    repo.remove();
  });

  const database = async (appName: string) => {
    const { dbepsilonId } = await berth.ok('dbepsilon.create', {
      name: 'db', appName: 'db', projectId, containerImage: DATABASE_IMAGE.dbepsilon, databasePassword: 'Db-Pass-4242',
    });
    await berth.ok('dbepsilon.update', { dbepsilonId, appName });
    await berth.call('dbepsilon.deploy', { dbepsilonId });
    const [record] = await deploymentRecordsOf(berth, 'databaseId', dbepsilonId);
    return { dbepsilonId, deployment: await ended(berth, String(record!.deploymentId)) };
  };

  it('a database named after an operator\'s volume fails to deploy naming it, and its removal leaves the volume; its own volume is marked and removed', async () => {
    const before = volumeState(opVolume);
    const foreign = await database(names.db);
    assert.equal(foreign.deployment.status, 'error');
    assert.match(JSON.stringify(foreign.deployment), new RegExp(`a volume named ${opVolume} exists on the engine that Berth did not make for this service`));
    assert.equal(await engine.inspectService(names.db), null, 'no service was created');

    const own = await database(names.ownDb);
    assert.equal(own.deployment.status, 'done', JSON.stringify(own.deployment));
    assert.match(volumeState(`${names.ownDb}-data`) ?? '', new RegExp(`"berth.databaseId":"${own.dbepsilonId}"`));

    await berth.ok('dbepsilon.remove', { dbepsilonId: foreign.dbepsilonId });
    await berth.ok('dbepsilon.remove', { dbepsilonId: own.dbepsilonId });
    await eventually('the database\'s own volume to go', async () => volumeState(`${names.ownDb}-data`) === null, 60_000);
    assert.equal(volumeState(opVolume), before);
  });

  it('a database deployed before volumes carried the mark keeps deploying on its unmarked volume, and its removal keeps that volume', async () => {
    const appName = uniqueName('old-vol');
    const volume = `${appName}-data`;
    names.legacy = appName;
    const { dbepsilonId } = await berth.ok('dbepsilon.create', {
      name: 'db', appName: 'db', projectId, containerImage: DATABASE_IMAGE.dbepsilon, databasePassword: 'Db-Pass-4242',
    });
    await berth.ok('dbepsilon.update', { dbepsilonId, appName });
    // As Berth left it before the marks: its service marked, mounting a volume the engine made without labels.
    docker('volume', 'create', volume);
    docker('service', 'create', '--detach', '--name', appName, '--label', `berth.databaseId=${dbepsilonId}`, '--label', 'berth.database=dbepsilon',
      '--mount', `type=volume,source=${volume},target=/data`, '--replicas', '0', DATABASE_IMAGE.dbepsilon);
    await berth.call('dbepsilon.deploy', { dbepsilonId });
    const [record] = await deploymentRecordsOf(berth, 'databaseId', dbepsilonId);
    const deployment = await ended(berth, String(record!.deploymentId));
    assert.equal(deployment.status, 'done', JSON.stringify(deployment));

    await berth.ok('dbepsilon.remove', { dbepsilonId });
    await eventually('its service to go', async () => (await engine.inspectService(appName)) === null && docker('ps', '-aq', '--filter', `volume=${volume}`) === '', 60_000);
    // Its deployment records go last, after its volume's turn.
    await eventually('the removal to be done', async () => (await deploymentRecordsOf(berth, 'databaseId', dbepsilonId)).length === 0, 60_000);
    assert.notEqual(volumeState(volume), null, 'an unmarked volume is kept');
  });

  it('an application named after an operator\'s image repository leaves the operator\'s image on delete; its own images carry its mark and go', async () => {
    const { applicationId } = await berth.ok('application.create', { name: 'img', projectId });
    await berth.ok('application.update', { applicationId, appName: names.app });
    await berth.ok('application.saveGitProdiver', { applicationId, customGitUrl: repo.dir, customGitBranch: 'main' });
    const deployment = await ended(berth, (await berth.ok('application.deploy', { applicationId })).deploymentId);
    assert.equal(deployment.status, 'done', JSON.stringify(deployment));
    const own = `berth/${names.app}:deploy-${deployment.deploymentId}`;
    const mark = inspected('image', own, '{{index .Config.Labels "berth.applicationId"}}');

    await berth.ok('application.delete', { applicationId });
    // Its fetched source goes last, after its images.
    const source = join(sourcesDirOf(berth.dataDir), names.app);
    assert.equal(existsSync(source), true);
    await eventually('the application\'s removal to finish', async () => !existsSync(source), 60_000);
    assert.equal(inspected('image', own, '{{.Id}}'), null, 'its own image is gone');
    assert.notEqual(inspected('image', opImage, '{{.Id}}'), null, 'the operator\'s image is still tagged');
    assert.equal(mark, applicationId, 'the image Berth built carries the application\'s mark');
  });

  it('a stack named so that its network is an operator\'s fails to deploy naming it and leaves it; its own network is marked and removed', async () => {
    const before = networkState(opNetwork);
    const deploy = async (appName: string) => {
      const { composeId } = await berth.ok('compose.create', { name: appName, projectId, composeType: 'stack' });
      await berth.ok('compose.update', { composeId, appName, composeFile: FILE });
      return { composeId, deployment: await ended(berth, (await berth.ok('compose.deploy', { composeId })).deploymentId) };
    };
    const foreign = await deploy(names.stack);
    assert.equal(foreign.deployment.status, 'error');
    assert.match(JSON.stringify(foreign.deployment), new RegExp(`a network named ${opNetwork} exists on the engine that Berth did not make for this service`));
    assert.equal(await engine.inspectService(`${names.stack}_web`), null, 'no service was created');

    const own = await deploy(names.ownStack);
    assert.equal(own.deployment.status, 'done', JSON.stringify(own.deployment));
    assert.match(networkState(`${names.ownStack}_default`) ?? '', new RegExp(`"berth.composeId":"${own.composeId}"`));

    await berth.ok('compose.delete', { composeId: foreign.composeId });
    await berth.ok('compose.delete', { composeId: own.composeId });
    await eventually('the stack\'s own network to go', async () => networkState(`${names.ownStack}_default`) === null, 60_000);
    assert.equal(networkState(opNetwork), before);
  });

  it('a stack that takes the name of a deleted one does not mount the volume Berth kept of it: its deploy fails naming it', async () => {
    const volumeFile = `services:\n  web:\n    image: ${TEST_IMAGE}\n    volumes: ["data:/data"]\nvolumes:\n  data: {}\n`;
    const stack = async () => {
      const { composeId } = await berth.ok('compose.create', { name: 'kept', projectId, composeType: 'stack' });
      await berth.ok('compose.update', { composeId, appName: names.kept, composeFile: volumeFile });
      return { composeId, deployment: await ended(berth, (await berth.ok('compose.deploy', { composeId })).deploymentId) };
    };
    const first = await stack();
    assert.equal(first.deployment.status, 'done', JSON.stringify(first.deployment));
    await berth.ok('compose.delete', { composeId: first.composeId });
    await eventually('the first stack to go', async () =>
      await engine.inspectService(`${names.kept}_web`) === null && networkState(`${names.kept}_default`) === null, 60_000);
    assert.match(volumeState(`${names.kept}_data`) ?? '', new RegExp(`"berth.composeId":"${first.composeId}"`), 'its data is kept');

    const second = await stack();
    assert.equal(second.deployment.status, 'error');
    assert.match(JSON.stringify(second.deployment), new RegExp(`a volume named ${names.kept}_data exists on the engine that Berth did not make for this service`));
    assert.equal(await engine.inspectService(`${names.kept}_web`), null, 'no service mounts it');
    await berth.ok('compose.delete', { composeId: second.composeId });
  });
});
