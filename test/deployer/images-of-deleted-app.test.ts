// An application's removal takes every image Berth made for it, under the names it had when they
// were made: the repository of a registry it has left since, the appName it had before a rename.
// What carries another service's mark, or no mark, outside its repositories of now stays.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { APPLICATION_MARK } from '@berth/shared/domain/ownership';
import type { Application } from '@berth/shared/domain/application/record';
import type { Registry } from '@berth/shared/domain/registry/registry';
import { TEST_IMAGE, engine, eventually, uniqueName } from '../support/engine.ts';
import { deploy, deployer, testApplication } from '../support/deploy-work.ts';
import { GOOD_CONTAINERFILE, gitRepo } from '../support/git-repo.ts';
import { startRegistry, type TestRegistry } from '../support/registry.ts';

const d = deployer();
const repo = gitRepo();
repo.commit({ 'Containerfile': GOOD_CONTAINERFILE, 'index.html': 'marked\n' });
let registry: TestRegistry;
/** Every image tag and service the tests made, removed whatever the outcome. */
const tags: string[] = [];
const services: string[] = [];

const registryRecord = (registryId: string, imagePrefix: string): Registry => ({
  registryId, registryName: registryId, username: registry.username, password: d.deps.secrets.seal(registry.password),
  registryUrl: registry.url, registryType: 'selfHosted', imagePrefix, adminId: 'a', createdAt: new Date().toISOString(),
});

before(async () => {
  registry = await startRegistry();
  d.registries.set('reg-team', registryRecord('reg-team', 'team'));
  d.registries.set('reg-other', registryRecord('reg-other', 'other'));
});
after(async () => {
  for (const name of services) await engine.removeService(name);
  for (const name of services) {
    await eventually(`the containers of ${name} to go`, async () =>
      (await engine.listContainers({ label: `com.docker.swarm.service.name=${name}` })).length === 0);
  }
  for (const tag of tags) await engine.removeImage(tag);
  await registry.stop();
  repo.remove();
});

/** A git application building its Containerfile: its images carry its mark. */
function builtApplication(fields: Partial<Application> = {}): Application {
  const app = testApplication({ sourceType: 'git', customGitUrl: repo.dir, customGitBranch: 'main', buildType: 'containerfile', ...fields });
  services.push(app.appName);
  return app;
}

async function deployed(app: Application): Promise<string> {
  const { result, error, log } = await deploy(d, app);
  assert.equal(error, null, log.join('\n'));
  tags.push(result!.image, `berth/${app.appName}:${result!.image.split(':').at(-1)}`);
  return result!.image;
}

/** Builds a one-layer image from TEST_IMAGE with `labels`, tagged `tag`. */
async function imageWith(tag: string, labels: Record<string, string>, from = TEST_IMAGE): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'berth-foreign-'));
  try {
    writeFileSync(join(dir, 'Containerfile'), `FROM ${from}\nRUN echo ${randomBytes(4).toString('hex')} > /www/other.html\n`);
    await engine.buildImage({ contextDir: dir, containerfile: 'Containerfile', tag, labels, onLine: () => {} });
    tags.push(tag);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Images that are not the application's, in its repositories' names (now's and before's). */
async function othersIn(repositories: readonly string[]): Promise<string[]> {
  const otherApp = randomBytes(8).toString('hex');
  const otherDeployment = randomBytes(10).toString('base64url');
  // A deployment of another application: its tag names it, whatever repository the tag is in.
  d.deployments.set(otherDeployment, { applicationId: otherApp, composeId: null });
  const left: string[] = [];
  for (const repository of repositories) {
    const foreign = `${repository}:deploy-${otherDeployment}`;
    await imageWith(foreign, { [APPLICATION_MARK]: otherApp });
    const operators = `${repository}:operator`;
    await engine.tagImage(TEST_IMAGE, operators);
    tags.push(operators);
    left.push(foreign, operators);
  }
  return left;
}

const tagsIn = async (repositories: readonly string[]): Promise<string[]> =>
  (await Promise.all(repositories.map((repository) => engine.imageTags(repository)))).flat().sort();

test('a deleted application\'s images go from the registries it left, and what is not its stays', async () => {
  const app = builtApplication({ registryId: 'reg-team' });
  const first = await deployed(app);
  assert.match(first, new RegExp(`^${registry.url}/team/${app.appName}:deploy-`));
  const moved = { ...app, registryId: 'reg-other' };
  const second = await deployed(moved);
  assert.match(second, new RegExp(`^${registry.url}/other/${app.appName}:deploy-`));
  assert.equal((await engine.imageLabels(second))?.[APPLICATION_MARK], app.applicationId, 'Berth built it carrying its mark');

  const repositories = [`berth/${app.appName}`, `${registry.url}/team/${app.appName}`, `${registry.url}/other/${app.appName}`];
  const left = await othersIn(repositories);
  // An operator's image built FROM one of the application's inherits its labels, its mark too.
  const derived = `${uniqueName('berth-test-derived')}:1`;
  await imageWith(derived, {}, first);
  assert.equal((await engine.imageLabels(derived))?.[APPLICATION_MARK], app.applicationId);

  const unregistered = { ...app, registryId: null };
  await deployed(unregistered);
  await d.actions.remove(unregistered);

  assert.equal(await engine.inspectService(app.appName), null);
  assert.deepEqual(await tagsIn(repositories), left.sort(), 'only the images that are not its remain');
  assert.equal(await engine.imageExists(derived), true, 'the operator\'s image built from its image stays');
});

test('a deleted application\'s images go from the appName it had before a rename', async () => {
  const app = builtApplication({ registryId: 'reg-team' });
  await deployed(app);
  const repositories = [`berth/${app.appName}`, `${registry.url}/team/${app.appName}`];
  const left = await othersIn(repositories);
  // Its service of the former name is gone (a rename once deployed is refused by the API: this is
  // the images' side of it, whatever way they were left there).
  await engine.removeService(app.appName);
  const renamed = builtApplication({ applicationId: app.applicationId, appName: uniqueName('berth-app'), registryId: 'reg-team' });
  await deployed(renamed);
  repositories.push(`berth/${renamed.appName}`, `${registry.url}/team/${renamed.appName}`);

  await d.actions.remove(renamed);

  assert.equal(await engine.inspectService(renamed.appName), null);
  assert.deepEqual(await tagsIn(repositories), left.sort(), 'only the images that are not its remain');
});
