// A containerfile builds on other images (FROM, COPY --from, RUN --mount=from): the builder uses the
// engine's copy of each, so an image Berth keeps or built for another service may not be named there
// any more than it may be run as the application's containerImage (test/deploy/others-images.test.ts).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { APPLICATION_MARK } from '@berth/shared/domain/ownership';
import { TEST_IMAGE, engine, uniqueName } from '../support/engine.ts';
import { deploy, deployer, testApplication } from '../support/deploy-work.ts';
import { GOOD_CONTAINERFILE, gitRepo } from '../support/git-repo.ts';

describe('the images a containerfile builds on', () => {
  const d = deployer();
  const repo = gitRepo();
  /** An image as Berth builds one for another application: it carries that one's mark. */
  const marked = `${uniqueName('berth-test-marked')}:1`;
  /** An image where Berth keeps another application's images. */
  const kept = `berth/${uniqueName('someone-else')}:deploy-x`;
  const apps: ReturnType<typeof testApplication>[] = [];
  before(async () => {
    repo.commit({ 'Containerfile': GOOD_CONTAINERFILE, 'index.html': 'mine\n' });
    execFileSync('docker', ['build', '-q', '-t', marked, '--label', `${APPLICATION_MARK}=another-application`, '-'], { input: `FROM ${TEST_IMAGE}\n` });
    await engine.tagImage(TEST_IMAGE, kept);
  });
  after(async () => {
    for (const app of apps) await d.actions.remove(app);
    for (const image of [marked, kept]) await engine.removeImage(image);
    repo.remove();
  });

  const build = (containerfile: string | null) => {
    const app = testApplication({ sourceType: 'git', customGitUrl: repo.dir, customGitBranch: 'main', buildType: 'containerfile', containerfile });
    apps.push(app);
    return deploy(d, app);
  };

  it('may not build FROM an image Berth keeps for another application', async () => {
    const built = await build(`FROM ${kept}\nCOPY index.html /www/index.html\n`);
    assert.ok(built.error, built.log.join('\n'));
    assert.match(built.error.message, /is where Berth keeps another application's images/);
    assert.ok(!built.log.some((line) => /^Step \d/.test(line)), 'nothing was built');
  });

  it('may not COPY --from, or mount from, an image Berth built for another service', async () => {
    for (const containerfile of [
      `FROM ${TEST_IMAGE}\nCOPY --from=${marked} /www /stolen\n`,
      `FROM ${TEST_IMAGE}\nRUN --mount=type=bind,from=${marked},target=/m cat /m/www/index.html\n`,
    ]) {
      const built = await build(containerfile);
      assert.ok(built.error, built.log.join('\n'));
      assert.match(built.error.message, /is an image Berth built for another service: only that service runs it/);
    }
  });

  it('may not name one through an ARG, nor through an ARG it cannot resolve', async () => {
    const named = await build(`ARG BASE=${kept}\nFROM \${BASE}\n`);
    assert.match(named.error?.message ?? '', /is where Berth keeps another application's images/);
    const unresolved = await build(`ARG BASE\nFROM $BASE\n`);
    assert.match(unresolved.error?.message ?? '', /cannot be told before the build/);
  });

  it('reads the repository\'s own Containerfile too', async () => {
    repo.commit({ 'Containerfile': `FROM ${kept}\n` });
    try {
      const built = await build(null);
      assert.match(built.error?.message ?? '', /is where Berth keeps another application's images/);
    } finally {
      repo.commit({ 'Containerfile': GOOD_CONTAINERFILE });
    }
  });

  it('builds on earlier stages, by name or index, and on images no service owns', async () => {
    const built = await build(`FROM ${TEST_IMAGE} AS base\nRUN echo staged > /tmp/x\nFROM base\nCOPY --from=0 /tmp/x /www/x\nCOPY --from=BASE /tmp/x /www/y\nCOPY index.html /www/index.html\n`);
    assert.equal(built.error, null, built.log.join('\n'));
  });
});
