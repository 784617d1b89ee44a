// On the real engine: the proxy file written at the end of a deploy holds the application as it
// is then, not as it was when the deploy started. A router saved while the build runs survives
// the deploy's end (a rename is refused once a deployment exists), and a first deploy still writes
// the file of an application nothing else wrote one for.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { parse } from 'yaml';
import { proxyFilePath } from '@berth/shared/adapters/proxy-file';
import { startBerthWithReactors, type TestBerth } from '../support/berth.ts';
import { TEST_IMAGE, eventually, removeDeployed } from '../support/engine.ts';
import { GOOD_CONTAINERFILE, gitRepo, type GitRepo } from '../support/git-repo.ts';
import { freePort } from '../support/http.ts';

const router = (host: string, appName: string) =>
  `http:\n  routers:\n    web:\n      rule: Host(\`${host}\`)\n      service: ${appName}-service\n`;

describe('the proxy file after a deploy', () => {
  let berth: TestBerth;
  let projectId: string;
  let dir: string;
  const deployed: string[] = [];
  const repos: GitRepo[] = [];
  const text = (appName: string) => (existsSync(proxyFilePath(dir, appName)) ? readFileSync(proxyFilePath(dir, appName), 'utf8') : null);
  const status = async (deploymentId: string) => (await berth.ok('deployment.one', { deploymentId })).status as string;
  before(async () => {
    berth = await startBerthWithReactors({ config: { taskStartTimeoutMs: 20_000 } });
    ({ projectId } = await berth.ok('project.create', { name: 'proxied-deploys' }));
    dir = berth.berth.infrastructure.config.proxyDir;
  });
  after(async () => {
    await removeDeployed(deployed);
    await berth.stop();
    for (const repo of repos) repo.remove();
  });

  const appOn = async (name: string, containerfile: string) => {
    const repo = gitRepo();
    repos.push(repo);
    repo.commit({ 'Containerfile': containerfile, 'index.html': 'hello\n' });
    const created = await berth.ok('application.create', { name, projectId });
    deployed.push(created.appName);
    await berth.ok('application.saveGitProdiver', { applicationId: created.applicationId, customGitUrl: repo.dir, customGitBranch: 'main' });
    return created as { applicationId: string; appName: string };
  };

  it('keeps a router saved while the build ran, and refuses a rename once deployed', async () => {
    const nonce = randomBytes(6).toString('hex');
    const slow = `FROM ${TEST_IMAGE}\nRUN for i in $(seq 1 8); do echo "tick $i ${nonce}"; sleep 1; done\nCOPY index.html /www/index.html\n`;
    const { applicationId, appName: old } = await appOn('slow', slow);
    await berth.ok('port.create', { applicationId, publishedPort: await freePort(), targetPort: 8080 });
    await berth.ok('application.updateProxyConfig', { applicationId, proxyConfig: router('before.test', old) });
    await eventually('the file before the deploy', async () => text(old)?.includes('before.test'));

    const { deploymentId } = await berth.ok('application.deploy', { applicationId });
    await eventually('the build to run', async () => (await status(deploymentId)) === 'running', 60_000);
    await berth.ok('application.updateProxyConfig', { applicationId, proxyConfig: router('during.test', old) });
    await eventually('the file with the new router', async () => text(old)?.includes('during.test'));
    await berth.refused('application.update', { applicationId, appName: `renamed-${nonce}` }, 409, 'appName');
    assert.equal(await status(deploymentId), 'running', 'the build is still running: the test is meaningful');

    await eventually('the deploy to end', async () => ['done', 'error'].includes(await status(deploymentId)), 90_000);
    assert.equal(await status(deploymentId), 'done');
    const file = parse(text(old)!);
    assert.equal(file.http.routers.web.rule, 'Host(`during.test`)', 'the deploy did not write back the router it started with');
    assert.equal(file.http.routers.web.service, `${old}-service`);
  });

  it('writes the file of an application after its first deploy, though nothing else wrote one', async () => {
    const { applicationId, appName } = await appOn('plain', GOOD_CONTAINERFILE);
    const { deploymentId } = await berth.ok('application.deploy', { applicationId });
    await eventually('the deploy to end', async () => ['done', 'error'].includes(await status(deploymentId)), 90_000);
    assert.equal(await status(deploymentId), 'done');
    const file = parse(await eventually('the file', async () => text(appName)));
    assert.deepEqual(file.http.services[`${appName}-service`].loadBalancer.servers, [{ url: `http://${appName}:80` }]);
  });
});
