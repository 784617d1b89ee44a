// A build that fails or is cancelled leaves no image of its steps on the engine (the classic builder
// keeps one per step, untagged, and would leave them forever), and takes none an earlier successful
// build's image is made of, though it found them in its cache.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { after, test } from 'node:test';
import { TEST_IMAGE, eventually, uniqueName } from '../support/engine.ts';
import { deploy, deployer, testApplication } from '../support/deploy-work.ts';
import { gitRepo } from '../support/git-repo.ts';
import type { Application } from '@berth/shared/domain/application/record';

const d = deployer();
const repos = [gitRepo(), gitRepo(), gitRepo()] as const;
const [failing, cancelled, cached] = repos.map((repo) => testApplication({
  sourceType: 'git', customGitUrl: repo.dir, customGitBranch: 'main', buildType: 'containerfile', appName: uniqueName('berth-test-failed-build'),
})) as [Application, Application, Application];
const apps = [failing, cancelled, cached];
after(async () => {
  for (const app of apps) await d.actions.remove(app);
  for (const repo of repos) repo.remove();
});

const docker = (...args: string[]) => execFileSync('docker', args, { encoding: 'utf8' }).trim();
/** The engine's untagged images that nothing is built on. */
const dangling = () => new Set(docker('images', '-q', '--no-trunc', '--filter', 'dangling=true').split('\n').filter(Boolean));
const exists = (id: string) => {
  try {
    docker('image', 'inspect', id);
    return true;
  } catch {
    return false;
  }
};
/** Whether the image was made by a build whose containerfile holds `nonce` (other tests build at the same time). */
const madeWith = (id: string, nonce: string) => {
  try {
    return docker('history', '--no-trunc', '--format', '{{.CreatedBy}}', id).includes(nonce);
  } catch {
    return false; // gone meanwhile
  }
};
/** The image ids the build reported for its steps after the first (the FROM's is the base): ` ---> <id>`. */
const stepImages = (log: readonly string[]) => {
  const ids: string[] = [];
  let step = 0;
  for (const line of log) {
    if (/^Step \d+\/\d+ : /.test(line)) step += 1;
    const id = /^\s*---> ([0-9a-f]{12,64})$/.exec(line)?.[1];
    if (id && step > 1) ids.push(id);
  }
  return ids;
};
/** Each run's own text in its containerfile: its steps miss every cache but its own. */
const nonce = () => randomBytes(6).toString('hex');

test('a failed build leaves no dangling image of its steps', async () => {
  const mark = nonce();
  const before = dangling();
  repos[0].commit({
    'Containerfile': `FROM ${TEST_IMAGE}\nRUN echo ${mark} > /mark\nCOPY index.html /www/index.html\nENV MARK=${mark}\nRUN echo tests fail; exit 3\n`,
    'index.html': 'failed\n',
  });
  const failed = await deploy(d, failing);
  assert.ok(failed.error, 'the build fails');
  const steps = stepImages(failed.log);
  assert.equal(steps.length, 3, failed.log.join('\n'));
  assert.deepEqual(steps.filter(exists), [], `the step images are gone:\n${failed.log.join('\n')}`);
  const left = [...dangling()].filter((id) => !before.has(id) && madeWith(id, mark));
  assert.deepEqual(left, [], 'no dangling image of this build');
});

test('a cancelled build leaves none', async () => {
  const mark = nonce();
  const before = dangling();
  repos[1].commit({ 'Containerfile': `FROM ${TEST_IMAGE}\nRUN echo ${mark} > /mark\nRUN echo ${mark} > /again\nRUN sleep 120\n` });
  const cancel = new AbortController();
  const log: string[] = [];
  const app = cancelled;
  const ended = d.run({ deploymentId: randomBytes(10).toString('base64url'), kind: 'deploy', application: app, image: null,
    log: (line) => log.push(line), signal: cancel.signal }).then(() => null, (error: unknown) => error);
  // Cancelled while the last step runs: its container is there, on the image of the step before.
  await eventually('the last step to run', async () => log.some((line) => /^Step 4\//.test(line)) && /Running in/.test(log.at(-1) ?? ''), 60_000);
  cancel.abort(new Error('cancelled by the test'));
  assert.ok(await ended, 'the deployment ends in its cancellation');
  const steps = stepImages(log);
  assert.equal(steps.length, 2, log.join('\n'));
  assert.deepEqual(steps.filter(exists), [], `the step images are gone:\n${log.join('\n')}`);
  assert.deepEqual([...dangling()].filter((id) => !before.has(id) && madeWith(id, mark)), [], 'no dangling image of this build');
});

test('a failed build after a successful one keeps the successful build\'s cached steps', async () => {
  const mark = nonce();
  const good = `FROM ${TEST_IMAGE}\nRUN echo ${mark} > /mark\nCOPY index.html /www/index.html\nENV MARK=${mark}\n`;
  repos[2].commit({ 'Containerfile': good, 'index.html': 'good\n' });
  const done = await deploy(d, cached);
  assert.equal(done.error, null, done.log.join('\n'));
  // Its steps, and the step Berth's build adds, its mark as a LABEL.
  const kept = stepImages(done.log);
  assert.equal(kept.length, 4, done.log.join('\n'));

  repos[2].commit({ 'Containerfile': `${good}RUN echo ${mark} > /more\nRUN echo tests fail; exit 3\n` });
  const failed = await deploy(d, cached);
  assert.ok(failed.error, 'the build fails');
  assert.equal(failed.log.filter((line) => line.includes('Using cache')).length, 3, failed.log.join('\n'));
  const [own] = stepImages(failed.log).filter((id) => !kept.includes(id));
  assert.ok(own, `the failed build made a step image of its own:\n${failed.log.join('\n')}`);
  assert.equal(exists(own), false, 'the failed build\'s own step image is gone');
  assert.deepEqual(kept.filter((id) => !exists(id)), [], 'the successful build\'s step images are all there');

  // Its cache still serves: the successful build again, without a step run.
  repos[2].commit({ 'Containerfile': good });
  const again = await deploy(d, cached);
  assert.equal(again.error, null, again.log.join('\n'));
  assert.deepEqual(stepImages(again.log), kept, again.log.join('\n'));
  assert.equal(again.log.filter((line) => line.includes('Using cache')).length, 4, again.log.join('\n'));
});
