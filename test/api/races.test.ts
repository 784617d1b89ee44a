// Rules that span records are decided against the log: many requests claiming the same thing at
// once, exactly one wins, the others answer 409, and the log holds one claim.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fold } from '@berth/shared/domain/aggregate';
import { reservationAggregate } from '@berth/shared/domain/reservation/reservation';
import { startBerth, type TestBerth } from '../support/berth.ts';
import { databaseCredentials } from '../support/databases.ts';
import { oneWinner, times } from '../support/one-winner.ts';
import { forgetUse, usageOf } from '../support/log.ts';

const RACERS = 50;

describe('races on the rules the log decides', () => {
  let berth: TestBerth;
  let projectId: string;
  before(async () => {
    berth = await startBerth();
    ({ projectId } = await berth.ok('project.create', { name: 'races' }));
  });
  after(() => berth.stop());

  const application = async () => (await berth.ok('application.create', { name: 'app', projectId })).applicationId as string;
  const database = async () => (await berth.ok('dbgamma.create', {
    name: 'db', appName: 'db', projectId, ...databaseCredentials('dbgamma'),
  })).dbgammaId as string;
  let nextPort = 30000 + Math.floor(Math.random() * 20000);

  /** How many times the log reserved `key`. */
  async function claimsOf(key: string) {
    const { events } = await berth.berth.infrastructure.eventStore.readStream(`reservation-${key}`);
    return events.filter((event) => event.type === 'NameReserved').length;
  }

  it('one host port: databases and applications publishing it at once, one wins', async () => {
    const port = nextPort++;
    const databases = await times(RACERS / 2, database);
    const applications = await times(RACERS / 2, application);
    const answers = await Promise.all([
      ...databases.map((dbgammaId) => berth.call('dbgamma.saveExternalPort', { dbgammaId, externalPort: port })),
      ...applications.map((applicationId) => berth.call('port.create', { applicationId, publishedPort: port, targetPort: 80 })),
    ]);
    assert.equal(answers.filter((answer) => answer.status === 200).length, 1, JSON.stringify(answers.map((a) => a.status)));
    assert.ok(answers.every((answer) => answer.status === 200 || answer.status === 409));
    assert.equal(await claimsOf(`hostPort:${port}/tcp`), 1);
  });

  it('one published port: applications claiming it at once, one wins; freed when its port goes', async () => {
    const port = nextPort++;
    const applications = await times(RACERS, application);
    const answers = await Promise.all(applications.map((applicationId) =>
      berth.call('port.create', { applicationId, publishedPort: port, targetPort: 80 })));
    oneWinner(answers, 'publishedPort');
    assert.equal(await claimsOf(`hostPort:${port}/tcp`), 1);
    const winner = answers.find((answer) => answer.status === 200)!.body as { portId: string };
    await berth.ok('port.delete', { portId: winner.portId });
    await berth.ok('dbgamma.saveExternalPort', { dbgammaId: await database(), externalPort: port });
  });

  it('one port updated to different host ports at once: one wins, the others answer 409 naming portId, and only its host ports stay held', async () => {
    const applicationId = await application();
    const from = nextPort++;
    const { portId } = await berth.ok('port.create', { applicationId, publishedPort: from, targetPort: 80 });
    const targets = Array.from({ length: 8 }, () => nextPort++);
    const answers = await Promise.all(targets.map((publishedPort) => berth.call('port.update', { portId, publishedPort, targetPort: 80 })));
    const won = oneWinner(answers, 'portId');
    const held = await Promise.all([from, ...targets].map(async (port) =>
      (await berth.berth.infrastructure.eventStore.readStream(`reservation-hostPort:${port}/tcp`)).events.at(-1)?.type === 'NameReserved'));
    assert.deepEqual([from, ...targets].filter((_, i) => held[i]), [won.body.publishedPort]);
  });

  it('one database external port: databases saving it at once, one wins', async () => {
    const port = nextPort++;
    const databases = await times(RACERS, database);
    const answers = await Promise.all(databases.map((dbgammaId) => berth.call('dbgamma.saveExternalPort', { dbgammaId, externalPort: port })));
    oneWinner(answers, 'externalPort');
    assert.equal(await claimsOf(`hostPort:${port}/tcp`), 1);
  });

  it('one basic-auth username per application: users created at once, one wins', async () => {
    const applicationId = await application();
    const answers = await times(RACERS, () => berth.call('security.create', { applicationId, username: 'ops', password: 'secret' }));
    oneWinner(answers, 'username');
    assert.equal(await claimsOf(`basicAuth:${applicationId}/ops`), 1);
    assert.equal((await berth.ok('application.one', { applicationId })).security.length, 1);
  });

  it('one proxy name: applications defining the same router at once, one wins; freed when its application goes', async () => {
    const applications = await times(RACERS, application);
    const proxyConfig = 'http:\n  routers:\n    storefront:\n      rule: Host(`shop.test`)\n      service: noop@internal\n';
    const answers = await Promise.all(applications.map((applicationId) => berth.call('application.updateProxyConfig', { applicationId, proxyConfig })));
    oneWinner(answers, 'proxyConfig');
    assert.equal(await claimsOf('proxyName:http.routers.storefront'), 1);
    const winner = applications[answers.findIndex((answer) => answer.status === 200)]!;
    const loser = applications.find((applicationId) => applicationId !== winner)!;
    await berth.ok('application.delete', { applicationId: winner });
    await berth.ok('application.updateProxyConfig', { applicationId: loser, proxyConfig });
  });

  it('proxy configurations saved on one application at once leave claimed only the names the stored one defines', async () => {
    const [applicationId, other] = [await application(), await application()];
    const named = (i: number) => `http:\n  routers:\n    router-${i}-${applicationId}:\n      rule: Host(\`r${i}.test\`)\n      service: noop@internal\n`;
    const answers = await times(20, (i) => berth.call('application.updateProxyConfig', { applicationId, proxyConfig: named(i) }));
    assert.ok(answers.every((answer) => answer.status === 200 || answer.status === 409), JSON.stringify(answers.map((a) => a.status)));
    const stored = (await berth.ok('application.one', { applicationId })).proxyConfig as string;
    for (let i = 0; i < 20; i++) {
      if (named(i) === stored) continue;
      // A name the stored configuration does not define is free for another application.
      await berth.ok('application.updateProxyConfig', { applicationId: other, proxyConfig: named(i) });
    }
  });

  it('one appName: services renamed to it at once, one wins', async () => {
    const applications = await times(RACERS, application);
    const answers = await Promise.all(applications.map((applicationId) => berth.call('application.update', { applicationId, appName: 'the-one' })));
    oneWinner(answers, 'appName');
    assert.equal(await claimsOf('appName:the-one'), 1);
  });

  it('one email: invitations sent at once, one wins', async () => {
    const answers = await times(RACERS, () => berth.call('admin.createUserInvitation', { email: 'racer@berth.test' }));
    oneWinner(answers, 'email');
    assert.equal(await claimsOf('email:racer@berth.test'), 1);
  });

  it('a destination is never removed while a backup created at the same time uses it', async () => {
    const dbgammaId = await database();
    for (let round = 0; round < 5; round++) {
      const { destinationId } = await berth.ok('destination.create', {
        name: 'bucket', accessKey: 'a', bucket: 'b', region: 'r', endpoint: 'https://s3.example.test', secretAccessKey: 's',
      });
      const [removed, ...created] = await Promise.all([
        berth.call('destination.remove', { destinationId }),
        // Each in a folder of its own: two backups in one folder of a destination are refused.
        ...Array.from({ length: 10 }, (_, i) => berth.call('backup.create', {
          schedule: '0 3 * * *', prefix: `p${i}`, destinationId, database: 'd', databaseType: 'dbgamma', dbgammaId,
        })),
      ]);
      const made = created.filter((answer) => answer.status === 200).length;
      assert.ok(created.every((answer) => [200, 404].includes(answer.status)), JSON.stringify(created.map((a) => a.body)));
      // Either the destination went first and no backup uses it, or backups use it and it stayed.
      if (removed!.status === 200) assert.equal(made, 0);
      else assert.equal(removed!.status, 409, JSON.stringify(removed!.body));
    }
  });

  it('many requests that only share a resource all get through: applications set to one registry, backups to one destination', async () => {
    const { registryId } = await berth.ok('registry.create', {
      registryName: 'shared', username: 'u', password: 'p', registryUrl: 'registry.example.test', registryType: 'cloud', imagePrefix: null,
    });
    const applications = await times(RACERS, application);
    const updated = await Promise.all(applications.map((applicationId) => berth.call('application.update', { applicationId, registryId })));
    assert.deepEqual(updated.filter((answer) => answer.status !== 200).map((answer) => answer.body), []);
    const removal = await berth.call('registry.remove', { registryId });
    assert.equal(removal.status, 409);
    assert.match(removal.body.issues[0].message, new RegExp(`\\(${RACERS} application`));

    const { destinationId } = await berth.ok('destination.create', {
      name: 'shared', accessKey: 'a', bucket: 'b', region: 'r', endpoint: 'https://s3.example.test', secretAccessKey: 's',
    });
    const dbgammaId = await database();
    const created = await times(RACERS, (i) => berth.call('backup.create', {
      schedule: '0 3 * * *', prefix: `shared-${i}`, destinationId, database: 'd', databaseType: 'dbgamma', dbgammaId,
    }));
    assert.deepEqual(created.filter((answer) => answer.status !== 200).map((answer) => answer.body), []);
  });

  it('a registry is never removed while an application set to it at the same time uses it', async () => {
    const applications = await times(10, application);
    for (let round = 0; round < 5; round++) {
      const { registryId } = await berth.ok('registry.create', {
        registryName: 'r', username: 'u', password: 'p', registryUrl: 'registry.example.test', registryType: 'cloud', imagePrefix: null,
      });
      const [removed, ...updated] = await Promise.all([
        berth.call('registry.remove', { registryId }),
        ...applications.map((applicationId) => berth.call('application.update', { applicationId, registryId })),
      ]);
      const using = updated.filter((answer) => answer.status === 200).length;
      assert.ok(updated.every((answer) => [200, 404].includes(answer.status)), JSON.stringify(updated.map((a) => a.body)));
      if (removed!.status === 200) assert.equal(using, 0);
      else assert.equal(removed!.status, 409, JSON.stringify(removed!.body));
      // Set back, so the next round's registry starts unused.
      await Promise.all(applications.map((applicationId) => berth.ok('application.update', { applicationId, registryId: null })));
    }
  });
  /** Who holds `key` in the log now (null: it is free). */
  async function holderOf(key: string) {
    const { events } = await berth.berth.infrastructure.eventStore.readStream(`reservation-${key}`);
    return fold(reservationAggregate, events as never)?.owner ?? null;
  }

  /** The users the log counts for a usage key, and whether it is retired. */
  /** A refused creation in a parent already gone: 404 naming the parent's id field. */
  const refusedForItsParent = (answer: { status: number; body: { issues?: Array<{ path?: string }> } }, field: string) => {
    assert.equal(answer.status, 404, JSON.stringify(answer.body));
    assert.deepEqual(answer.body.issues?.map((issue) => issue.path), [field]);
  };

  it('a project removed while services are created in it takes every one created with it: none is left without its project', async () => {
    const kinds = [
      { create: 'application.create', one: 'application.one', id: 'applicationId', count: RACERS, input: {} },
      { create: 'compose.create', one: 'compose.one', id: 'composeId', count: 5, input: {} },
      { create: 'dbgamma.create', one: 'dbgamma.one', id: 'dbgammaId', count: 5, input: { appName: 'db', ...databaseCredentials('dbgamma') } },
    ];
    let removals = 0;
    for (let round = 0; round < 5; round++) {
      const { projectId: doomed } = await berth.ok('project.create', { name: `doomed-${round}` });
      // One service created before (and its use forgotten, as one created before uses were recorded).
      const legacy = await berth.ok('application.create', { name: 'legacy', projectId: doomed });
      await forgetUse(berth, 'project', doomed, legacy.applicationId);
      const creates = kinds.flatMap((kind) => Array.from({ length: kind.count }, (_, i) => ({ kind, input: { name: `s${i}`, projectId: doomed, ...kind.input } })));
      const [removed, ...created] = await Promise.all([
        (async () => { await new Promise((resolve) => setTimeout(resolve, round)); return berth.call('project.remove', { projectId: doomed }); })(),
        ...creates.map(({ kind, input }) => berth.call(kind.create, input)),
      ]);
      if (removed!.status !== 200) {
        assert.equal(removed!.status, 409, JSON.stringify(removed!.body));
        continue;
      }
      removals++;
      await berth.refused('project.one', { projectId: doomed }, 404, 'projectId');
      assert.equal((await berth.call('application.one', { applicationId: legacy.applicationId })).status, 404);
      assert.equal(await holderOf(`appName:${legacy.appName}`), null);
      for (const [i, answer] of created.entries()) {
        const { kind } = creates[i]!;
        if (answer.status !== 200) {
          refusedForItsParent(answer, 'projectId');
          continue;
        }
        const id = answer.body[kind.id] as string;
        assert.equal((await berth.call(kind.one, { [kind.id]: id })).status, 404, `${kind.create} ${id} outlived its project`);
        assert.equal(await holderOf(`appName:${answer.body.appName}`), null, `${kind.create} ${id} still holds its appName`);
      }
      assert.deepEqual(await usageOf(berth, 'project', doomed), { users: [], retired: true });
    }
    assert.ok(removals > 0, 'no removal got through');
  });

  it('a service moved into a project being removed goes with it, or is refused', async () => {
    for (let round = 0; round < 3; round++) {
      const applications = await times(10, application);
      const { projectId: doomed } = await berth.ok('project.create', { name: `moved-${round}` });
      const [removed, ...moved] = await Promise.all([
        berth.call('project.remove', { projectId: doomed }),
        ...applications.map((applicationId) => berth.call('application.update', { applicationId, projectId: doomed })),
      ]);
      assert.equal(removed!.status, 200, JSON.stringify(removed!.body));
      for (const [i, answer] of moved.entries()) {
        if (answer.status !== 200) refusedForItsParent(answer, 'projectId');
        const after = await berth.call('application.one', { applicationId: applications[i] });
        if (after.status === 200) assert.equal(after.body.projectId, projectId, 'an application lives in a removed project');
      }
    }
  });

  it('a refused update appends nothing, whatever else it would move: project, deploy token, appName', async () => {
    const { projectId: other } = await berth.ok('project.create', { name: 'other' });
    const taken = (await berth.ok('application.one', { applicationId: await application() })).appName as string;
    const applicationId = await application();
    const refreshToken = `refused-${Math.random().toString(36).slice(2)}-0123456789abcdef`;
    await berth.refused('application.update', { applicationId, projectId: other, refreshToken, appName: taken }, 409, 'appName');
    await berth.refused('application.update', { applicationId, projectId: other, refreshToken: 'short' }, 400, 'refreshToken');
    const { composeId } = await berth.ok('compose.create', { name: 'c', projectId });
    await berth.refused('compose.update', { composeId, projectId: other, refreshToken, appName: taken }, 409, 'appName');
    const dbgammaId = await database();
    await berth.refused('dbgamma.update', { dbgammaId, projectId: other, appName: taken }, 409, 'appName');
  });

  it('an application deleted while ports, redirects and users are added to it takes every one added with it', async () => {
    const kinds = [
      { create: 'port.create', one: 'port.one', id: 'portId', count: RACERS, input: (i: number) => ({ publishedPort: nextPort + i, targetPort: 1000 + i }) },
      { create: 'redirects.create', one: 'redirects.one', id: 'redirectId', count: 10, input: () => ({ regex: '^/a', replacement: '/b', permanent: false }) },
      { create: 'security.create', one: 'security.one', id: 'securityId', count: 10, input: (i: number) => ({ username: `u${i}`, password: 'secret' }) },
    ];
    let deletions = 0;
    for (let round = 0; round < 5; round++) {
      const applicationId = await application();
      const legacy = await berth.ok('port.create', { applicationId, publishedPort: nextPort + RACERS, targetPort: 80 });
      await forgetUse(berth, 'application', applicationId, legacy.portId);
      const creates = kinds.flatMap((kind) => Array.from({ length: kind.count }, (_, i) => ({ kind, input: { applicationId, ...kind.input(i) } })));
      const [deleted, ...created] = await Promise.all([
        (async () => { await new Promise((resolve) => setTimeout(resolve, round)); return berth.call('application.delete', { applicationId }); })(),
        ...creates.map(({ kind, input }) => berth.call(kind.create, input)),
      ]);
      if (deleted!.status !== 200) {
        assert.equal(deleted!.status, 409, JSON.stringify(deleted!.body));
        nextPort += RACERS + 1;
        continue;
      }
      deletions++;
      assert.equal((await berth.call('port.one', { portId: legacy.portId })).status, 404, 'the legacy port outlived its application');
      assert.equal(await holderOf(`hostPort:${nextPort + RACERS}/tcp`), null);
      for (const [i, answer] of created.entries()) {
        const { kind, input } = creates[i]!;
        if (answer.status !== 200) {
          refusedForItsParent(answer, 'applicationId');
          continue;
        }
        assert.equal((await berth.call(kind.one, { [kind.id]: answer.body[kind.id] })).status, 404, `${kind.create} outlived its application`);
        if ('publishedPort' in input) assert.equal(await holderOf(`hostPort:${input.publishedPort}/tcp`), null, `port ${input.publishedPort} still held`);
        if ('username' in input) assert.equal(await holderOf(`basicAuth:${applicationId}/${input.username}`), null);
      }
      assert.deepEqual(await usageOf(berth, 'application', applicationId), { users: [], retired: true });
      nextPort += RACERS + 1;
    }
    assert.ok(deletions > 0, 'no deletion got through');
  });

  it('a creation in a removed parent is refused, 404 naming its id field, and appends nothing', async () => {
    const { projectId: gone } = await berth.ok('project.create', { name: 'gone' });
    const applicationId = await application();
    await berth.ok('project.remove', { projectId: gone });
    await berth.ok('application.delete', { applicationId });
    await berth.refused('application.create', { name: 'late', projectId: gone }, 404, 'projectId');
    await berth.refused('compose.create', { name: 'late', projectId: gone }, 404, 'projectId');
    await berth.refused('port.create', { applicationId, publishedPort: nextPort++, targetPort: 80 }, 404, 'applicationId');
    await berth.refused('security.create', { applicationId, username: 'late', password: 'secret' }, 404, 'applicationId');
  });
});
