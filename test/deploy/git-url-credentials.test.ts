// A git URL's credentials (`https://user:password@…`, the way to reach a private https repository)
// are a secret like any other: recorded sealed, so neither the history nor a webhook body holds
// them in clear, shown whole to who manages the service, and opened only to clone. And a fetch that
// fails leaves the last checkout, which a redeploy still rebuilds.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isSealed } from '@berth/shared/crypto/secrets';
import { eventLogOf } from '../support/berth.ts';
import { ended } from '../support/deployments.ts';
import { eventually, httpBody } from '../support/engine.ts';
import { freePort } from '../support/http.ts';
import { gitApps } from '../support/git-apps.ts';

const PASSWORD = 'a-git-password-in-the-url';
const URL_WITH_PASSWORD = `https://deploy:${PASSWORD}@git.example.test/acme/shop.git`;

describe('git URLs with credentials', () => {
  const apps = gitApps({ taskStartTimeoutMs: 20_000 });
  type Saved = { applicationId: string; customGitUrl: string | null };
  const events = async (type: string) => (await apps.berth.berth.infrastructure.eventStore.readAll(0, 100_000))
    .filter((event) => event.type === type).map((event) => event.data as Saved);

  it('records a URL that carries credentials sealed, shows it whole to its manager, and keeps it from the history in clear', async () => {
    const { applicationId } = await apps.app('sealed-url');
    const saved = await apps.berth.ok('application.saveGitProdiver', { applicationId, customGitUrl: URL_WITH_PASSWORD, customGitBranch: 'main' });
    assert.equal(saved.customGitUrl, URL_WITH_PASSWORD);
    assert.equal((await apps.berth.ok('application.one', { applicationId })).customGitUrl, URL_WITH_PASSWORD);
    const [recorded] = (await events('ApplicationGitProviderSaved')).filter((data) => data.applicationId === applicationId && data.customGitUrl !== apps.repoDir);
    assert.ok(isSealed(recorded!.customGitUrl), `recorded as ${recorded!.customGitUrl}`);
    assert.ok(!(await eventLogOf(apps.berth.berth)).includes(PASSWORD), 'the password is in the log in clear');
    const history = await apps.berth.ok('events.stream', { stream: `application-${applicationId}` });
    assert.ok(!JSON.stringify(history).includes(PASSWORD), 'the history shows the password');
    // The same URL again changes nothing: it is not sealed afresh.
    const before = (await events('ApplicationUpdated')).length;
    await apps.berth.ok('application.update', { applicationId, customGitUrl: URL_WITH_PASSWORD });
    assert.equal((await events('ApplicationUpdated')).length, before);
  });

  it('keeps a URL without credentials as it was given', async () => {
    const { applicationId } = await apps.app('plain-url');
    await apps.berth.ok('application.update', { applicationId, customGitUrl: 'https://git.example.test/acme/open.git' });
    const [updated] = (await events('ApplicationUpdated')).filter((data) => data.applicationId === applicationId);
    assert.equal(updated!.customGitUrl, 'https://git.example.test/acme/open.git');
  });

  it('seals the credentials of a compose service\'s git URL too', async () => {
    const { projectId } = await apps.berth.ok('project.create', { name: 'compose-url' });
    const { composeId } = await apps.berth.ok('compose.create', { name: 'stack', projectId, composeType: 'stack' });
    const updated = await apps.berth.ok('compose.update', { composeId, sourceType: 'git', customGitUrl: URL_WITH_PASSWORD });
    assert.equal(updated.customGitUrl, URL_WITH_PASSWORD);
    assert.ok(!(await eventLogOf(apps.berth.berth)).includes(PASSWORD), 'the password is in the log in clear');
  });

  it('a fetch that fails leaves the last checkout: a redeploy rebuilds it', async () => {
    const port = await freePort();
    const { applicationId } = await apps.app('kept-checkout', port);
    assert.equal((await ended(apps.berth, await apps.deploy(applicationId))).status, 'done');
    await apps.berth.ok('application.saveGitProdiver', { applicationId, customGitUrl: apps.repoDir, customGitBranch: 'no-such-branch' });
    const failed = await ended(apps.berth, await apps.deploy(applicationId));
    assert.equal(failed.status, 'error');
    const { deploymentId } = await apps.berth.ok('application.redeploy', { applicationId });
    const redeployed = await ended(apps.berth, deploymentId);
    assert.equal(redeployed.status, 'done', (await apps.berth.ok('deployment.logs', { deploymentId })).log);
    await eventually('the last checkout served', async () => (await httpBody(port)) === 'version 1\n');
  });
});
