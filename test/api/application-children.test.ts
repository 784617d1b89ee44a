import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startBerth, type TestBerth } from '../support/berth.ts';

describe('ports, redirects and basic-auth users of an application', () => {
  let berth: TestBerth;
  let projectId: string;
  before(async () => {
    berth = await startBerth();
    projectId = (await berth.ok('project.create', { name: 'children' })).projectId;
  });
  after(() => berth.stop());

  const newApplication = () => berth.ok('application.create', { name: 'shop', projectId });

  it('publishes ports, tcp unless told, listed in the application', async () => {
    const { applicationId } = await newApplication();
    const web = await berth.ok('port.create', { applicationId, publishedPort: 8080, targetPort: 80 });
    assert.equal(web.protocol, 'tcp');
    const dns = await berth.ok('port.create', { applicationId, publishedPort: 8080, targetPort: 53, protocol: 'udp' });
    assert.equal((await berth.ok('port.one', { portId: web.portId })).targetPort, 80);
    const ports = (await berth.ok('application.one', { applicationId })).ports.map((p: { portId: string }) => p.portId);
    assert.deepEqual(ports.sort(), [web.portId, dns.portId].sort());
  });

  it('refuses a port on an unknown application, or one its application already publishes', async () => {
    const { applicationId } = await newApplication();
    await berth.refused('port.create', { applicationId: 'nope', publishedPort: 1, targetPort: 1 }, 404, 'applicationId');
    const first = await berth.ok('port.create', { applicationId, publishedPort: 9000, targetPort: 80 });
    await berth.refused('port.create', { applicationId, publishedPort: 9000, targetPort: 81, protocol: 'tcp' }, 409, 'publishedPort');
    const second = await berth.ok('port.create', { applicationId, publishedPort: 9001, targetPort: 81 });
    await berth.refused('port.update', { portId: second.portId, publishedPort: 9000, targetPort: 81 }, 409, 'publishedPort');
    const kept = await berth.ok('port.update', { portId: first.portId, publishedPort: 9000, targetPort: 8000 });
    assert.equal(kept.targetPort, 8000);
    const other = await newApplication();
    await berth.ok('port.create', { applicationId: other.applicationId, publishedPort: 9002, targetPort: 80 });
    await berth.refused('port.update', { portId: 'nope', publishedPort: 1, targetPort: 1 }, 404, 'portId');
  });

  it('keeps a port\'s protocol when an update leaves it out, and changes it when given', async () => {
    const { applicationId } = await newApplication();
    const { portId } = await berth.ok('port.create', { applicationId, publishedPort: 8053, targetPort: 53, protocol: 'udp' });
    assert.equal((await berth.ok('port.update', { portId, publishedPort: 8053, targetPort: 54 })).protocol, 'udp');
    assert.equal((await berth.ok('port.one', { portId })).protocol, 'udp');
    assert.equal((await berth.ok('port.update', { portId, publishedPort: 8053, targetPort: 54, protocol: 'tcp' })).protocol, 'tcp');
  });

  it('deletes a port, answering it, then NOT_FOUND', async () => {
    const { applicationId } = await newApplication();
    const { portId } = await berth.ok('port.create', { applicationId, publishedPort: 7000, targetPort: 80 });
    assert.equal((await berth.ok('port.delete', { portId })).publishedPort, 7000);
    assert.equal((await berth.call('port.one', { portId })).status, 404);
    await berth.refused('port.delete', { portId }, 404, 'portId');
  });

  it('creates and updates redirects whose regex compiles, and refuses one that does not, naming regex', async () => {
    const { applicationId } = await newApplication();
    const created = await berth.ok('redirects.create', { applicationId, regex: '^http://(.*)', replacement: 'https://$1', permanent: true });
    assert.equal(created.permanent, true);
    const updated = await berth.ok('redirects.update', { redirectId: created.redirectId, regex: '^/old/(.*)', replacement: '/new/$1', permanent: false });
    assert.deepEqual([updated.regex, updated.permanent], ['^/old/(.*)', false]);
    await berth.refused('redirects.create', { applicationId, regex: '([a-z', replacement: 'x', permanent: false }, 400, 'regex');
    await berth.refused('redirects.update', { redirectId: created.redirectId, regex: '*', replacement: 'x', permanent: false }, 400, 'regex');
    await berth.refused('redirects.create', { applicationId: 'nope', regex: 'a', replacement: 'b', permanent: false }, 404, 'applicationId');
    assert.equal((await berth.ok('application.one', { applicationId })).redirects.length, 1);
    await berth.ok('redirects.delete', { redirectId: created.redirectId });
    assert.equal((await berth.call('redirects.one', { redirectId: created.redirectId })).status, 404);
  });

  it('judges a redirect as the proxy loads it: Go (RE2) regex syntax, nothing that breaks a line of its YAML file', async () => {
    const { applicationId } = await newApplication();
    const created = await berth.ok('redirects.create', { applicationId, regex: '(?i)^http://Old\\.test/(?P<rest>.*)', replacement: 'https://new.test/${rest}', permanent: true });
    for (const regex of ['^https?://(?=www)(.*)', '^/(a)\\1', '^/foo\\Z']) {
      await berth.refused('redirects.create', { applicationId, regex, replacement: 'x', permanent: false }, 400, 'regex');
      await berth.refused('redirects.update', { redirectId: created.redirectId, regex, replacement: 'x', permanent: false }, 400, 'regex');
    }
    await berth.refused('redirects.create', { applicationId, regex: '^/a\u2029b', replacement: '/c', permanent: true }, 400, 'regex');
    await berth.refused('redirects.update', { redirectId: created.redirectId, regex: '^/a', replacement: '/c\u2028', permanent: true }, 400, 'replacement');
    await berth.refused('security.create', { applicationId, username: 'ann\u2028ex', password: 'x' }, 400, 'username');
  });

  it('keeps basic-auth usernames unique per application and their passwords sealed in the log', async () => {
    const { applicationId } = await newApplication();
    const alice = await berth.ok('security.create', { applicationId, username: 'alice', password: 'basic-secret-1' });
    assert.equal(alice.password, 'basic-secret-1');
    await berth.refused('security.create', { applicationId, username: 'alice', password: 'x' }, 409, 'username');
    // Refused before its name is claimed: a name that basic authentication cannot carry changes nothing.
    await berth.refused('security.create', { applicationId, username: 'al:ice', password: 'x' }, 400, 'username');
    await berth.refused('security.update', { securityId: alice.securityId, username: 'al\nice', password: 'x' }, 400, 'username');
    const bob = await berth.ok('security.create', { applicationId, username: 'bob', password: 'basic-secret-2' });
    await berth.refused('security.update', { securityId: bob.securityId, username: 'alice', password: 'y' }, 409, 'username');
    const updated = await berth.ok('security.update', { securityId: bob.securityId, username: 'bobby', password: 'basic-secret-3' });
    assert.deepEqual([updated.username, updated.password], ['bobby', 'basic-secret-3']);
    const other = await newApplication();
    await berth.ok('security.create', { applicationId: other.applicationId, username: 'alice', password: 'z' });
    const text = await berth.eventLog();
    for (const secret of ['basic-secret-1', 'basic-secret-2', 'basic-secret-3']) assert.ok(!text.includes(secret));
    await berth.refused('security.create', { applicationId: 'nope', username: 'u', password: 'p' }, 404, 'applicationId');
  });

  it('answers a taken basic-auth username naming the username only, never its application\'s id', async () => {
    const { applicationId } = await newApplication();
    await berth.ok('security.create', { applicationId, username: 'ann2', password: 'p1' });
    const ben = await berth.ok('security.create', { applicationId, username: 'ben', password: 'p2' });
    const expected = 'username "ann2" is already taken by this application';
    for (const refusal of [
      await berth.refused('security.create', { applicationId, username: 'ann2', password: 'p3' }, 409, 'username'),
      await berth.refused('security.update', { securityId: ben.securityId, username: 'ann2', password: 'p4' }, 409, 'username'),
    ]) {
      assert.equal(refusal.message, expected);
      assert.deepEqual(refusal.issues.map((issue: { message: string }) => issue.message), [expected]);
      assert.ok(!JSON.stringify(refusal).includes(applicationId), JSON.stringify(refusal));
    }
  });

  it('deletes an application with its ports, redirects and users, and frees its appName', async () => {
    const app = await newApplication();
    const { applicationId } = app;
    const { portId } = await berth.ok('port.create', { applicationId, publishedPort: 6000, targetPort: 80 });
    const { redirectId } = await berth.ok('redirects.create', { applicationId, regex: 'a', replacement: 'b', permanent: false });
    const { securityId } = await berth.ok('security.create', { applicationId, username: 'u', password: 'p' });
    const removed = await berth.ok('application.delete', { applicationId });
    assert.equal(removed.appName, app.appName);
    for (const [operation, input] of [
      ['application.one', { applicationId }], ['port.one', { portId }], ['redirects.one', { redirectId }], ['security.one', { securityId }],
    ] as const) {
      assert.equal((await berth.call(operation, input)).status, 404, operation);
    }
    await berth.refused('application.delete', { applicationId }, 404, 'applicationId');
    const heir = await newApplication();
    assert.equal((await berth.ok('application.update', { applicationId: heir.applicationId, appName: app.appName })).appName, app.appName);
  });
});
