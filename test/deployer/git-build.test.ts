// Issue test 2 on the work functions: a local git repository with a Containerfile, built by the
// engine, re-deployed, broken, and rolled back to an earlier deployment's image without a build.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { freePort } from '../support/http.ts';
import { TEST_IMAGE, engine, eventually, httpBody } from '../support/engine.ts';
import { deploy, deployer, portOf, testApplication } from '../support/deploy-work.ts';
import { GOOD_CONTAINERFILE, gitRepo } from '../support/git-repo.ts';

const d = deployer();
const repo = gitRepo();
const app = testApplication({ sourceType: 'git', customGitUrl: repo.dir, customGitBranch: 'main', buildType: 'containerfile' });
after(async () => {
  await d.actions.remove(app);
  repo.remove();
});

/** A containerfile given in the application: the page it builds says "inline". */
const INLINE_CONTAINERFILE = `FROM ${TEST_IMAGE}\nRUN echo inline > /www/index.html\n`;

const serves = (port: number, text: string) => eventually(`"${text.trim()}" served`, async () => (await httpBody(port)) === text);

test('a git source builds, deploys its new commits, survives a broken build and rolls back without a build', async () => {
  const port = await freePort();
  d.ports.set(app.applicationId, [portOf(app, port)]);
  const first = repo.commit({ 'Containerfile': GOOD_CONTAINERFILE, 'index.html': 'version 1\n' });

  const v1 = await deploy(d, app);
  assert.equal(v1.error, null, v1.log.join('\n'));
  assert.equal(v1.result!.revision, first);
  assert.ok(v1.log.some((line) => /Step 2\/\d+ : COPY/.test(line)), 'the build output is in the log');
  await serves(port, 'version 1\n');

  const second = repo.commit({ 'index.html': 'version 2\n' });
  const v2 = await deploy(d, app);
  assert.equal(v2.error, null, v2.log.join('\n'));
  assert.equal(v2.result!.revision, second);
  await serves(port, 'version 2\n');

  // redeploy rebuilds the revision already fetched, not the repository's newest commit
  repo.commit({ 'index.html': 'version 3\n' });
  const again = await deploy(d, app, 'redeploy');
  assert.equal(again.result!.revision, second);

  repo.commit({ 'Containerfile': `${GOOD_CONTAINERFILE}COPY no-such-file /www/\n` });
  const broken = await deploy(d, app);
  assert.ok(broken.error);
  assert.match(broken.error.message, /no-such-file/);
  assert.ok(broken.log.some((line) => line.startsWith('error:') && line.includes('no-such-file')), broken.log.join('\n'));
  assert.equal(await httpBody(port), 'version 2\n', 'the previous version still serves');

  const rollback = await deploy(d, app, 'rollback', v1.result!.image);
  assert.equal(rollback.error, null, rollback.log.join('\n'));
  assert.ok(!rollback.log.some((line) => /Step \d|Cloning|Building/.test(line)), 'nothing is fetched or built');
  await serves(port, 'version 1\n');
  assert.equal((await engine.inspectService(app.appName))!.spec.TaskTemplate.ContainerSpec.Image, v1.result!.image);
});

/** Deploys an application of `repoDir` built from INLINE_CONTAINERFILE, sees it serve its page, then removes it. */
async function deploysInline(repoDir: string): Promise<void> {
  const inline = testApplication({ sourceType: 'git', customGitUrl: repoDir, customGitBranch: 'main', containerfile: INLINE_CONTAINERFILE });
  const port = await freePort();
  d.ports.set(inline.applicationId, [portOf(inline, port)]);
  try {
    const done = await deploy(d, inline);
    assert.equal(done.error, null, done.log.join('\n'));
    await serves(port, 'inline\n');
  } finally {
    await d.actions.remove(inline);
  }
}

test('a containerfile given in the application wins over the repository file', async () => {
  await deploysInline(repo.dir);
});

test('a repository that cannot be cloned fails the deployment with git\'s reason', async () => {
  const missing = testApplication({ sourceType: 'git', customGitUrl: '/nonexistent/berth-repo', customGitBranch: 'main' });
  const { error } = await deploy(d, missing);
  assert.match(error!.message, /git clone failed/);
  assert.equal(await engine.inspectService(missing.appName), null);
});

test('a pack build type fails naming its missing CLI', async () => {
  const packed = testApplication({ sourceType: 'git', customGitUrl: repo.dir, customGitBranch: 'main', buildType: 'gamma_packs' });
  const { error } = await deploy(d, packed);
  assert.match(error!.message, /needs the "nixpacks" CLI, which is not installed/);
});

test('links in a repository do not lead out of it: a build path linked outside fails, and a .berth.containerfile link is not written through', async () => {
  const outside = mkdtempSync(join(tmpdir(), 'berth-outside-'));
  writeFileSync(join(outside, 'victim'), 'untouched\n');
  const linked = gitRepo();
  linked.commit({ 'Containerfile': GOOD_CONTAINERFILE, 'index.html': 'linked\n' });
  symlinkSync(outside, join(linked.dir, 'web'));
  symlinkSync(join(outside, 'victim'), join(linked.dir, '.berth.containerfile'));
  linked.commit({}, 'links out');
  const throughLink = testApplication({ sourceType: 'git', customGitUrl: linked.dir, customGitBranch: 'main', customGitBuildPath: 'web' });
  try {
    const { error } = await deploy(d, throughLink);
    assert.match(error!.message, /the build path "web" leads out of the repository through a symbolic link/);
    await deploysInline(linked.dir);
    assert.equal(readFileSync(join(outside, 'victim'), 'utf8'), 'untouched\n');
  } finally {
    linked.remove();
    rmSync(outside, { recursive: true, force: true });
  }
});
