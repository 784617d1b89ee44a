// Secrets are answered only to the callers allowed to manage them: a registry's password to admins,
// an application's proxy configuration to those who may read proxy files.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startBerth, type TestBerth } from '../support/berth.ts';
import { ALL_FLAGS, invitedUser } from '../support/users.ts';

const REGISTRY_PASSWORD = 'registry-password-81f3';
const PROXY_CONFIG = 'http:\n  routers:\n    internal-admin:\n      rule: Host(`admin.internal.example`)\n      service: internal\n';

describe('secrets withheld from callers who do not manage them', () => {
  let berth: TestBerth;
  let registryId: string;
  let projectId: string;
  let applicationId: string;
  before(async () => {
    berth = await startBerth();
    registryId = (await berth.ok('registry.create', {
      registryName: 'r', username: 'bot', password: REGISTRY_PASSWORD, registryUrl: 'registry.example.com:5000', registryType: 'cloud', imagePrefix: null,
    })).registryId;
    projectId = (await berth.ok('project.create', { name: 'p' })).projectId;
    applicationId = (await berth.ok('application.create', { name: 'web', projectId })).applicationId;
    await berth.ok('application.updateProxyConfig', { applicationId, proxyConfig: PROXY_CONFIG });
  });
  after(() => berth.stop());

  it('shows a registry password to admins only', async () => {
    assert.equal((await berth.ok('registry.one', { registryId })).password, REGISTRY_PASSWORD);
    const user = await invitedUser(berth);
    for (const [operation, input] of [['registry.one', { registryId }], ['registry.all', {}]] as const) {
      const answer = await berth.call(operation, input, { token: user.token });
      assert.equal(answer.status, 200);
      assert.ok(!JSON.stringify(answer.body).includes(REGISTRY_PASSWORD), `${operation} showed the password`);
    }
    assert.equal((await berth.call('registry.one', { registryId }, { token: user.token })).body.registryUrl, 'registry.example.com:5000');
  });

  it('shows an application proxy configuration only with canAccessToProxyFiles', async () => {
    const { canAccessToProxyFiles: _dropped, ...flags } = ALL_FLAGS;
    const without = await invitedUser(berth, { ...flags, canAccessToProxyFiles: false, accesedProjects: [projectId], accesedServices: [applicationId] });
    const withFlag = await invitedUser(berth, { ...ALL_FLAGS, accesedProjects: [projectId], accesedServices: [applicationId] });
    // The same question twice each, in turn: a kept answer is not handed to the other caller.
    for (let round = 0; round < 2; round++) {
      for (const operation of ['application.one', 'application.saveEnvironment'] as const) {
        const input = operation === 'application.one' ? { applicationId } : { applicationId, env: 'A=1' };
        const hidden = await berth.call(operation, input, { token: without.token });
        assert.equal(hidden.status, 200);
        assert.equal(hidden.body.proxyConfig, undefined, `${operation} showed the proxy configuration`);
        assert.equal((await berth.call(operation, input, { token: withFlag.token })).body.proxyConfig, PROXY_CONFIG);
      }
    }
    const project = await berth.call('project.one', { projectId }, { token: without.token });
    assert.ok(!JSON.stringify(project.body).includes('internal-admin'));
  });
});
