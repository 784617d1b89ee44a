// What a deployment runs follows the compose service's settings as saved: a redeploy after the git
// source changed fetches the new source (it reuses the last fetch only while the source is the same),
// and a file the service's env cannot fill fails saying so, in the compose file's own words.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startBerthWithReactors, type TestBerth } from '../support/berth.ts';
import { TEST_IMAGE } from '../support/engine.ts';
import { ended } from '../support/deployments.ts';
import { docker, projectContainers, removeComposeProjects } from '../support/compose-projects.ts';
import { gitRepo, type GitRepo } from '../support/git-repo.ts';

const containers = (project: string) => projectContainers(project, true);
/** The compose services the project's containers run. */
const projectServices = (project: string) => containers(project)
  .map((id) => docker('inspect', '-f', '{{index .Config.Labels "com.docker.compose.service"}}', id)).sort();
const oneService = (name: string) => `services:\n  ${name}:\n    image: ${TEST_IMAGE}\n`;

describe('compose settings take effect on the next deployment', () => {
  let berth: TestBerth;
  let projectId: string;
  const projects: string[] = [];
  const repos: GitRepo[] = [];
  before(async () => {
    berth = await startBerthWithReactors({ config: { actionWaitMs: 60_000 } });
    ({ projectId } = await berth.ok('project.create', { name: 'compose settings' }));
  });
  after(async () => {
    try {
      removeComposeProjects(projects);
      for (const repo of repos) repo.remove();
    } finally {
      await berth.stop();
    }
  });

  async function deployment(composeId: string, operation: 'compose.deploy' | 'compose.redeploy') {
    return ended(berth, (await berth.ok(operation, { composeId })).deploymentId);
  }

  it('a redeploy after customGitUrl changed runs the new repository\'s file, not the last fetch of the old one', async () => {
    const first = gitRepo();
    const second = gitRepo();
    repos.push(first, second);
    first.commit({ 'docker-compose.yml': oneService('alpha') });
    second.commit({ 'docker-compose.yml': oneService('beta') });
    const { composeId, appName } = await berth.ok('compose.create', { name: 'moved', projectId, composeType: 'container-compose', appName: 'berth-test-cs-moved' });
    projects.push(appName);
    await berth.ok('compose.update', { composeId, sourceType: 'git', customGitUrl: first.dir, customGitBranch: 'main' });
    assert.equal((await deployment(composeId, 'compose.deploy')).status, 'done');
    assert.deepEqual(projectServices(appName), ['alpha']);

    await berth.ok('compose.update', { composeId, customGitUrl: second.dir });
    const redeployed = await deployment(composeId, 'compose.redeploy');
    assert.equal(redeployed.status, 'done', redeployed.reason);
    assert.deepEqual(await berth.ok('compose.allServices', { composeId }), ['beta']);
    assert.deepEqual(projectServices(appName), ['beta'], 'the new repository\'s service runs, the old one is gone');

    // The same source again: a redeploy reuses the last fetch, as before.
    second.commit({ 'docker-compose.yml': oneService('gamma') });
    assert.equal((await deployment(composeId, 'compose.redeploy')).status, 'done');
    assert.deepEqual(projectServices(appName), ['beta']);

    await berth.ok('compose.delete', { composeId });
  });

  it('a file whose required variable the env leaves unset fails its deployment saying so once', async () => {
    const { composeId, appName } = await berth.ok('compose.create', { name: 'unset', projectId, composeType: 'stack', appName: 'berth-test-cs-unset' });
    projects.push(appName);
    await berth.ok('compose.update', { composeId, composeFile: 'services:\n  web:\n    image: "${IMG:?set IMG}"\n' });
    const failed = await deployment(composeId, 'compose.deploy');
    assert.equal(failed.status, 'error');
    assert.equal(failed.reason, 'the compose file needs a value for the required variable IMG: set IMG');
    await berth.ok('compose.delete', { composeId });
  });
});
