// A `container-compose` project that builds its image, redeployed with new sources again and again,
// leaves no image of its earlier builds: the tool builds under the same name each time, and the
// image it replaced (with the images of its steps) stayed untagged, one more per deploy. Its
// deletion leaves none either: the image the tool built under the project's name went on living.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';
import { startBerthWithReactors, type TestBerth } from '../support/berth.ts';
import { ended } from '../support/deployments.ts';
import { TEST_IMAGE, eventually } from '../support/engine.ts';
import { gitRepo } from '../support/git-repo.ts';

const DEPLOYS = 3;
const repo = gitRepo();
let berth: TestBerth;
let composeId = '';
let appName = '';
const docker = (...args: string[]) => execFileSync('docker', args, { encoding: 'utf8' }).trim();
/** Every image (step images too) made by a build whose containerfile holds one of `marks`. */
const imagesMadeWith = (marks: readonly string[]) => docker('images', '-a', '-q', '--no-trunc').split('\n').filter(Boolean).filter((id) => {
  try {
    const history = docker('history', '--no-trunc', '--format', '{{.CreatedBy}}', id);
    return marks.some((mark) => history.includes(mark));
  } catch {
    return false; // gone meanwhile
  }
});

before(async () => {
  berth = await startBerthWithReactors({ config: { keepDeployments: 2, actionWaitMs: 30_000 } });
  const { projectId } = await berth.ok('project.create', { name: 'growth' });
  ({ composeId, appName } = await berth.ok('compose.create', { name: 'berth-test-growth-tool', projectId, composeType: 'container-compose' }));
  await berth.ok('compose.update', { composeId, sourceType: 'git', customGitUrl: repo.dir, customGitBranch: 'main', composePath: 'docker-compose.yml' });
});
after(async () => {
  await berth.call('compose.delete', { composeId });
  await eventually('the project\'s containers to go', async () => docker('ps', '-aq', '--filter', `label=com.docker.compose.project=${appName}`) === '', 30_000);
  for (const id of docker('images', '-q', `${appName}*`).split('\n').filter(Boolean)) docker('rmi', '-f', id);
  await berth.stop();
  repo.remove();
});

test(`${DEPLOYS} deploys that rebuild the project's image keep only the image it runs, and its steps`, { timeout: 60_000 }, async () => {
  const marks: string[] = [];
  for (let i = 0; i < DEPLOYS; i += 1) {
    const mark = randomBytes(6).toString('hex');
    marks.push(mark);
    repo.commit({
      'docker-compose.yml': 'services:\n  web:\n    build: .\n    command: ["sleep", "600"]\n',
      'Dockerfile': `FROM ${TEST_IMAGE}\nRUN echo ${mark} > /a\nRUN echo ${mark} > /b\n`,
    });
    const deployment = await ended(berth, (await berth.ok('compose.deploy', { composeId })).deploymentId);
    assert.equal(deployment.status, 'done', deployment.reason);
  }
  // The last build's two step images; none of the builds before.
  assert.equal(imagesMadeWith(marks.slice(-1)).length, 2);
  assert.deepEqual(imagesMadeWith(marks.slice(0, -1)), [], 'the images of the earlier builds');
});

test('deleting the project removes the image the tool built for it', { timeout: 30_000 }, async () => {
  await berth.ok('compose.delete', { composeId });
  await eventually('the project\'s containers to go', async () => docker('ps', '-aq', '--filter', `label=com.docker.compose.project=${appName}`) === '', 20_000);
  await eventually('the built image to go', async () => docker('images', '-q', `${appName}*`) === '', 10_000);
});
