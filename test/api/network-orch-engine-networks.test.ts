// application.update with networkOrch naming the engine's own networks: `host` put a tenant's task
// in the host's network namespace. Refused when saved, for every account (the deployer checks each
// network on the engine again), with the spec's error shape and nothing appended.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { pathsOf, startBerth, type TestBerth } from '../support/berth.ts';
import { invitedUser, type TestUser } from '../support/users.ts';

const ENGINE_NETWORKS = ['host', 'none', 'bridge', 'docker_gwbridge', 'ingress'];
let berth: TestBerth;
let user: TestUser;
let applicationId: string;
before(async () => {
  berth = await startBerth();
  const { projectId } = await berth.ok('project.create', { name: 'tenant' });
  applicationId = (await berth.ok('application.create', { name: 'c', projectId })).applicationId;
  // No flag at all: access to this one application only, as in the audit.
  user = await invitedUser(berth, { accesedProjects: [projectId], accesedServices: [applicationId] });
});
after(() => berth.stop());

it('refuses a user an application joining host, none, bridge, docker_gwbridge or ingress, naming networkOrch, appending nothing', async () => {
  for (const Target of ENGINE_NETWORKS) {
    const head = await berth.head();
    const answer = await berth.call('application.update', { applicationId, networkOrch: [{ Target: 'shop-net' }, { Target }] }, { token: user.token });
    assert.equal(answer.status, 400, `${Target}: ${JSON.stringify(answer.body)}`);
    assert.equal(answer.body.code, 'BAD_REQUEST');
    assert.deepEqual(pathsOf(answer.body), ['networkOrch']);
    assert.match(answer.body.message, new RegExp(`^networkOrch names ${Target}: an application joins swarm overlay networks only`));
    assert.equal(await berth.head(), head, Target);
  }
  assert.equal((await berth.ok('application.one', { applicationId })).networkOrch, null);
});

it('refuses the admin the same: no account runs a service in the host network through networkOrch', async () => {
  await berth.refused('application.update', { applicationId, networkOrch: [{ Target: 'host' }] }, 400, 'networkOrch');
});

it('lets a user save an overlay network by name', async () => {
  const answer = await berth.call('application.update', { applicationId, networkOrch: [{ Target: 'shop-net', Aliases: ['web'] }] }, { token: user.token });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  assert.deepEqual(answer.body.networkOrch, [{ Target: 'shop-net', Aliases: ['web'] }]);
});
