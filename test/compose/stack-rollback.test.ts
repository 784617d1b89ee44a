// A stack deployment fails as a whole: when one service's tasks cannot run, the services that did
// roll out go back to their previous version too, so the stack is never left half new.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startBerthWithReactors, type TestBerth } from '../support/berth.ts';
import { TEST_IMAGE, engine } from '../support/engine.ts';
import { removeStacks } from '../support/stacks.ts';
import { ended } from '../support/deployments.ts';

const file = (image: string) => `services:\n  fast:\n    image: ${TEST_IMAGE}\n    environment:\n      VERSION: "\${V}"\n  other:\n    image: ${image}\n`;

describe('a stack deployment that fails part-way', () => {
  let berth: TestBerth;
  const namespaces: string[] = [];
  before(async () => { berth = await startBerthWithReactors({ config: { actionWaitMs: 30_000, taskStartTimeoutMs: 8000 } }); });
  after(async () => {
    try {
      await removeStacks(namespaces);
    } finally {
      await berth.stop();
    }
  });

  it('leaves every service on the version it had', async () => {
    const { projectId } = await berth.ok('project.create', { name: 'half stacks' });
    const { composeId, appName } = await berth.ok('compose.create', { name: 'pair', projectId, composeType: 'stack' });
    namespaces.push(appName);
    await berth.ok('compose.update', { composeId, composeFile: file(TEST_IMAGE), env: 'V=one' });
    const first = await ended(berth, (await berth.ok('compose.deploy', { composeId })).deploymentId);
    assert.equal(first.status, 'done', first.reason);
    const envOf = async () => (await engine.inspectService(`${appName}_fast`))!.spec.TaskTemplate.ContainerSpec.Env ?? [];
    assert.ok((await envOf()).includes('VERSION=one'));

    // `fast` can roll out version two; `other`'s image does not exist, so its tasks never run.
    await berth.ok('compose.update', { composeId, composeFile: file('berth-test/no-such-image:nope'), env: 'V=two' });
    const second = await ended(berth, (await berth.ok('compose.deploy', { composeId })).deploymentId);
    assert.equal(second.status, 'error');
    assert.ok((await envOf()).includes('VERSION=one'), `fast went back to version one: ${JSON.stringify(await envOf())}`);
    assert.equal((await engine.inspectService(`${appName}_other`))!.spec.TaskTemplate.ContainerSpec.Image.split('@')[0], TEST_IMAGE);
  });
});
