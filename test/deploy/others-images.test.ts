// An image Berth built or keeps for one service is that service's: another may not run the engine's
// copy of it (found there because its pull failed) — not an application, a database or a stack.
// Nor does a registry that refuses a login leave the engine's copy of its image to whoever asks.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { APPLICATION_MARK } from '@berth/shared/domain/ownership';
import { startBerthWithReactors, type TestBerth } from '../support/berth.ts';
import { databaseCredentials } from '../support/databases.ts';
import { ended } from '../support/deployments.ts';
import { TEST_IMAGE, engine, removeDeployed, uniqueName } from '../support/engine.ts';
import { startRegistry, type TestRegistry } from '../support/registry.ts';
import { removeStacks } from '../support/stacks.ts';

describe('images of other services', () => {
  let berth: TestBerth;
  let registry: TestRegistry;
  let projectId: string;
  const services: string[] = [];
  const namespaces: string[] = [];
  const images: string[] = [];
  /** An image as Berth builds one for another application: it carries that one's mark. */
  const marked = `${uniqueName('berth-test-marked')}:1`;
  /** An image where Berth keeps another application's images. */
  const kept = `berth/${uniqueName('someone-else')}:deploy-x`;
  let privateImage: string;

  before(async () => {
    registry = await startRegistry();
    privateImage = `${registry.url}/team/${uniqueName('private')}:1`;
    execFileSync('docker', ['build', '-q', '-t', marked, '--label', `${APPLICATION_MARK}=another-application`, '-'], { input: `FROM ${TEST_IMAGE}\n` });
    await engine.tagImage(TEST_IMAGE, kept);
    await engine.tagImage(TEST_IMAGE, privateImage);
    images.push(marked, kept, privateImage);
    berth = await startBerthWithReactors({ config: { taskStartTimeoutMs: 20_000 } });
    ({ projectId } = await berth.ok('project.create', { name: 'others' }));
  });
  after(async () => {
    await removeDeployed(services);
    // Run on code that let it deploy, the stack would stay.
    await removeStacks(namespaces);
    for (const image of images) await engine.removeImage(image);
    await berth.stop();
    await registry.stop();
  });

  const deployImage = async (containerImage: string, login: { username: string; password: string } | null = null) => {
    const { applicationId, appName } = await berth.ok('application.create', { name: 'app', projectId });
    services.push(appName);
    await berth.ok('application.saveContainerProvider', { applicationId, containerImage, username: login?.username ?? null, password: login?.password ?? null });
    return ended(berth, (await berth.ok('application.deploy', { applicationId })).deploymentId);
  };

  it('an application may not run the engine\'s copy of an image Berth built for another', async () => {
    const deployment = await deployImage(marked);
    assert.equal(deployment.status, 'error');
    assert.match(deployment.reason, /could not be pulled: .*; and the engine's copy of .* is an image Berth built for another service: only that service runs it$/);
  });

  it('an application may not run an image of another application\'s local repository', async () => {
    const deployment = await deployImage(kept);
    assert.equal(deployment.status, 'error');
    assert.match(deployment.reason, /is where Berth keeps another application's images/);
  });

  it('a registry that refuses the login, or asks for one, fails the deployment though the engine has the image', async () => {
    const wrong = await deployImage(privateImage, { username: registry.username, password: 'not the password' });
    assert.equal(wrong.status, 'error');
    assert.match(wrong.reason, /could not be pulled: .*(unauthorized|authentication required)/);
    const none = await deployImage(privateImage);
    assert.equal(none.status, 'error');
    assert.match(none.reason, /could not be pulled: .*no basic auth credentials/);
  });

  it('an image on the engine that no service owns still runs when its pull fails', async () => {
    const deployment = await deployImage(TEST_IMAGE);
    assert.equal(deployment.status, 'done', deployment.reason);
  });

  it('a database may not run an image Berth built for another service', async () => {
    const { dbgammaId, appName } = await berth.ok('dbgamma.create', { name: 'db', appName: 'db', projectId, ...databaseCredentials('dbgamma') });
    services.push(appName);
    await berth.ok('dbgamma.update', { dbgammaId, containerImage: marked });
    const answer = await berth.call('dbgamma.deploy', { dbgammaId });
    assert.match(JSON.stringify(answer.body), /is an image Berth built for another service/);
    assert.equal(await engine.inspectService(appName), null);
  });

  it('a stack may not run an image Berth keeps for another application', async () => {
    const { composeId, appName } = await berth.ok('compose.create', { name: 'stack', projectId, composeType: 'stack' });
    namespaces.push(appName);
    await berth.ok('compose.update', { composeId, composeFile: `services:\n  web:\n    image: ${kept}\n` });
    const deployment = await ended(berth, (await berth.ok('compose.deploy', { composeId })).deploymentId);
    assert.equal(deployment.status, 'error');
    assert.match(deployment.reason, /is where Berth keeps another application's images/);
    assert.equal(await engine.inspectService(`${appName}_web`), null);
  });
});
