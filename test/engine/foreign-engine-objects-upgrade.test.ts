// A stack Berth deployed before stacks carried its mark (the namespace label only, and the label of
// the deployment that wrote each service) is still the compose service's: the next deploy marks it
// and updates it, and stop and delete find it.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { startBerthWithReactors, type TestBerth } from '../support/berth.ts';
import { TEST_IMAGE, eventually } from '../support/engine.ts';
import { ended } from '../support/deployments.ts';
import { removeStacks } from '../support/stacks.ts';

const docker = (...args: string[]) => execFileSync('docker', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
const FILE = `services:\n  web:\n    image: ${TEST_IMAGE}\n`;
const labelsOf = (name: string) => JSON.parse(docker('service', 'inspect', name, '--format', '{{json .Spec.Labels}}')) as Record<string, string>;

describe('a stack Berth deployed before its stacks carried the mark', () => {
  let berth: TestBerth;
  let appName = '';
  before(async () => { berth = await startBerthWithReactors({ config: { actionWaitMs: 60_000 } }); });
  after(async () => {
    if (appName) await removeStacks([appName]);
    await berth.stop();
  });

  it('is marked and updated by the next deploy, and found by stop and delete', async () => {
    const { projectId } = await berth.ok('project.create', { name: 'upgraded' });
    const created = await berth.ok('compose.create', { name: 'old-stack', projectId, composeType: 'stack' });
    const { composeId } = created;
    appName = created.appName;
    await berth.ok('compose.update', { composeId, composeFile: FILE });
    const first = await ended(berth, (await berth.ok('compose.deploy', { composeId })).deploymentId);
    assert.equal(first.status, 'done', JSON.stringify(first));
    const web = `${appName}_web`;
    assert.equal(labelsOf(web)['berth.composeId'], composeId);
    // As Berth left it before the mark: the namespace and the deployment's label only.
    docker('service', 'update', '--detach', '--label-rm', 'berth.composeId', web);
    assert.equal(labelsOf(web)['berth.composeId'], undefined);

    const second = await ended(berth, (await berth.ok('compose.deploy', { composeId })).deploymentId);
    assert.equal(second.status, 'done', JSON.stringify(second));
    assert.equal(labelsOf(web)['berth.composeId'], composeId);

    await berth.ok('compose.stop', { composeId });
    assert.equal(docker('service', 'inspect', web, '--format', '{{.Spec.Mode.Replicated.Replicas}}'), '0');
    await berth.ok('compose.delete', { composeId });
    await eventually('the stack to be removed', async () => docker('service', 'ls', '-q', '--filter', `name=${web}`) === '', 60_000);
  });
});
