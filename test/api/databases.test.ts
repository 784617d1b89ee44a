import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { credentialFields, DEFAULT_IMAGES, ENGINES, type Engine } from '@berth/shared/contract/databases';
import { pathsOf, startBerthWithReactors, type TestBerth } from '../support/berth.ts';
import { eventually } from '../support/engine.ts';
import { databaseCredentials, PASSWORD_FIELDS } from '../support/databases.ts';
import { deploymentRecordsOf } from '../support/deployments.ts';

/** Engines whose databases can have backups (the backup contract has no dbepsilon). */
const BACKED_UP: readonly Engine[] = ['dbalpha', 'dbbeta', 'dbgamma', 'dbdelta'];

describe('database operations', () => {
  let berth: TestBerth;
  let projectId: string;
  let port = 15000;
  before(async () => {
    // With the reactors: start, stop and reload are theirs to do, and their refusals carry the engine's reason.
    berth = await startBerthWithReactors({ config: { actionWaitMs: 60_000 } });
    ({ projectId } = await berth.ok('project.create', { name: 'data' }));
  });
  after(() => berth.stop());

  for (const engine of ENGINES) {
    describe(engine, () => {
      const idField = `${engine}Id`;
      const create = (input: Record<string, unknown> = {}) =>
        berth.ok(`${engine}.create`, { name: 'orders', appName: 'orders', projectId, ...databaseCredentials(engine), ...input });

      it('creates with the default image and generated passwords, answered but never in clear in the log', async () => {
        const created = await create();
        assert.equal(created[idField].length, 21);
        assert.match(created.appName, /^orders-[0-9a-f]{6}$/);
        assert.equal(created.containerImage, DEFAULT_IMAGES[engine]);
        assert.equal(created.applicationStatus, 'idle');
        assert.equal(created.externalPort, null);
        const events = await berth.eventLog();
        for (const field of credentialFields(engine).filter((f) => PASSWORD_FIELDS.has(f))) {
          assert.match(created[field], /^[A-Za-z0-9]{32}$/);
          assert.equal(events.includes(created[field]), false, `${field} is in clear in the log`);
        }
      });

      it('keeps a given password and image, sealed in the log', async () => {
        const created = await create({ ...databaseCredentials(engine, { password: 'S3cret-given-pass' }), containerImage: `${engine}:latest` });
        assert.equal(created.databasePassword, 'S3cret-given-pass');
        assert.equal(created.containerImage, `${engine}:latest`);
        assert.equal((await berth.eventLog()).includes('S3cret-given-pass'), false);
      });

      it('refuses a create in a missing project, naming projectId', async () => {
        await berth.refused(`${engine}.create`, { name: 'x', appName: 'x', projectId: 'nope', ...databaseCredentials(engine) }, 404, 'projectId');
      });

      it('reads a database with its backups, and lists it in its project', async () => {
        const created = await create();
        const one = await berth.ok(`${engine}.one`, { [idField]: created[idField] });
        assert.deepEqual(one, { ...created, backups: [] });
        const project = await berth.ok('project.one', { projectId });
        assert.ok(project[engine].some((db: Record<string, string>) => db[idField] === created[idField]));
      });

      it('updates any field, takes createdAt only as read, and keeps the password when sent empty', async () => {
        const created = await create();
        const updated = await berth.ok(`${engine}.update`, {
          [idField]: created[idField], name: 'renamed', command: 'serve --fast', memoryLimit: 512 * 2 ** 20, cpuLimit: 1_500_000_000,
          createdAt: created.createdAt, databasePassword: '',
        });
        assert.equal(updated.name, 'renamed');
        assert.equal(updated.command, 'serve --fast');
        assert.equal(updated.memoryLimit, 512 * 2 ** 20);
        assert.equal(updated.cpuLimit, 1_500_000_000);
        assert.equal(updated.createdAt, created.createdAt);
        await berth.refused(`${engine}.update`, { [idField]: created[idField], createdAt: '2000-01-01T00:00:00.000Z' }, 400, 'createdAt');
        assert.equal(updated.databasePassword, created.databasePassword);
        const changed = await berth.ok(`${engine}.update`, { [idField]: created[idField], databasePassword: 'N3w-password-here' });
        assert.equal(changed.databasePassword, 'N3w-password-here');
        assert.equal((await berth.eventLog()).includes('N3w-password-here'), false);
      });

      it('appends nothing for an update that sends the record back as it was', async () => {
        const created = await create();
        const head = await berth.head();
        const { [idField]: id, ...fields } = created;
        await berth.ok(`${engine}.update`, { [idField]: id, ...fields });
        assert.equal(await berth.head(), head);
      });

      it('saves the environment', async () => {
        const created = await create();
        const saved = await berth.ok(`${engine}.saveEnvironment`, { [idField]: created[idField], env: 'TZ=UTC' });
        assert.equal(saved.env, 'TZ=UTC');
        assert.equal((await berth.ok(`${engine}.one`, { [idField]: created[idField] })).env, 'TZ=UTC');
      });

      it('saves an external port, refuses one another database publishes, and frees it with null', async () => {
        const created = await create();
        const other = await berth.ok('dbgamma.create', { name: 'o', appName: 'o', projectId, ...databaseCredentials('dbgamma') });
        const taken = port++;
        await berth.ok('dbgamma.saveExternalPort', { dbgammaId: other.dbgammaId, externalPort: taken });
        await berth.refused(`${engine}.saveExternalPort`, { [idField]: created[idField], externalPort: taken }, 409, 'externalPort');
        await berth.refused(`${engine}.update`, { [idField]: created[idField], externalPort: taken }, 409, 'externalPort');
        const mine = port++;
        assert.equal((await berth.ok(`${engine}.saveExternalPort`, { [idField]: created[idField], externalPort: mine })).externalPort, mine);
        // Saving its own port again is no clash.
        assert.equal((await berth.ok(`${engine}.update`, { [idField]: created[idField], externalPort: mine })).externalPort, mine);
        await berth.ok('dbgamma.saveExternalPort', { dbgammaId: other.dbgammaId, externalPort: null });
        assert.equal((await berth.ok(`${engine}.saveExternalPort`, { [idField]: created[idField], externalPort: taken })).externalPort, taken);
      });

      it('changes the status to the given value', async () => {
        const created = await create();
        const changed = await berth.ok(`${engine}.changeStatus`, { [idField]: created[idField], applicationStatus: 'error' });
        assert.equal(changed.applicationStatus, 'error');
        await berth.refused(`${engine}.changeStatus`, { [idField]: created[idField], applicationStatus: 'broken' }, 400, 'applicationStatus');
      });

      it('removes a database, answers it as it was, then answers NOT_FOUND; its appName is free again', async () => {
        const doomed = await create();
        const removed = await berth.ok(`${engine}.remove`, { [idField]: doomed[idField] });
        assert.equal(removed[idField], doomed[idField]);
        const gone = await berth.call(`${engine}.one`, { [idField]: doomed[idField] });
        assert.equal(gone.status, 404);
        assert.deepEqual(pathsOf(gone.body), [idField]);
        const other = await create();
        assert.equal((await berth.ok(`${engine}.update`, { [idField]: other[idField], appName: doomed.appName })).appName, doomed.appName);
      });

      it('refuses an appName an application or a compose service has, naming appName', async () => {
        const application = await berth.ok('application.create', { name: 'api', projectId });
        const compose = await berth.ok('compose.create', { name: 'stack', projectId });
        const { [idField]: id } = await create();
        await berth.refused(`${engine}.update`, { [idField]: id, appName: application.appName }, 409, 'appName');
        await berth.refused(`${engine}.update`, { [idField]: id, appName: compose.appName }, 409, 'appName');
      });

      it('refuses to move a database into a missing project, naming projectId', async () => {
        const { [idField]: id } = await create();
        await berth.refused(`${engine}.update`, { [idField]: id, projectId: 'nope' }, 404, 'projectId');
      });

      it('answers NOT_FOUND naming the id field for every operation on an unknown id', async () => {
        const unknown = { [idField]: 'nope' };
        await berth.refused(`${engine}.one`, unknown, 404, idField);
        await berth.refused(`${engine}.update`, { ...unknown, name: 'x' }, 404, idField);
        await berth.refused(`${engine}.saveEnvironment`, { ...unknown, env: 'A=1' }, 404, idField);
        await berth.refused(`${engine}.saveExternalPort`, { ...unknown, externalPort: null }, 404, idField);
        await berth.refused(`${engine}.changeStatus`, { ...unknown, applicationStatus: 'done' }, 404, idField);
        await berth.refused(`${engine}.remove`, unknown, 404, idField);
      });

      it('answers start, stop, deploy and reload with NOT_FOUND for an unknown id, and CONFLICT with the reason when it cannot run', async () => {
        const created = await create();
        const statusNow = async () => (await berth.ok(`${engine}.one`, { [idField]: created[idField] })).applicationStatus;
        for (const procedure of ['start', 'stop', 'reload', 'deploy']) {
          const extra = procedure === 'reload' ? { appName: created.appName } : {};
          await berth.refused(`${engine}.${procedure}`, { [idField]: 'nope', ...extra }, 404, idField);
          if (procedure === 'reload') await berth.refused(`${engine}.reload`, { [idField]: created[idField], appName: 'another' }, 400, 'appName');
          if (procedure === 'reload') {
            // Idle: nothing runs to restart, so the reactors are not even asked.
            const refused = await berth.refused(`${engine}.reload`, { [idField]: created[idField], ...extra }, 409, idField);
            assert.match(refused.message, /is idle \(stopped, or never deployed\).*start or deploy it/);
            assert.equal(await statusNow(), 'idle');
            continue;
          }
          const answer = await berth.call(`${engine}.${procedure}`, { [idField]: created[idField], ...extra });
          assert.equal(answer.status, 409, JSON.stringify(answer.body));
          if (procedure === 'deploy') {
            // Its default image cannot be pulled here: the deployment fails, and so does the service.
            assert.equal(await statusNow(), 'error');
            // The kind's neutral default names no real image: the answer says how to give it one.
            assert.match(answer.body.message, new RegExp(`image ${DEFAULT_IMAGES[engine]} cannot be pulled: .*\\. ${DEFAULT_IMAGES[engine]} is the neutral default image of ${engine} databases, which no registry holds: set the database's containerImage to an image the engine has or can pull, or map the default to one in BERTH_DATABASE_PROFILES`));
          } else {
            // Never deployed: the engine has no such service. A failed start or stop leaves the status as it was.
            assert.match(answer.body.message, new RegExp(`names ${created.appName}, which could not ${procedure}: ${created.appName} is not deployed`));
            assert.equal(await statusNow(), 'idle');
          }
        }
        // An image the user chose that cannot be pulled is theirs to fix: no word on the kind's default.
        const own = await create({ containerImage: `berth-absent/${engine}:1` });
        const ownAnswer = await berth.call(`${engine}.deploy`, { [idField]: own[idField] });
        assert.equal(ownAnswer.status, 409, JSON.stringify(ownAnswer.body));
        assert.match(ownAnswer.body.message, new RegExp(`image berth-absent/${engine}:1 cannot be pulled: `));
        assert.doesNotMatch(ownAnswer.body.message, /neutral default|BERTH_DATABASE_PROFILES/);
        await berth.ok(`${engine}.remove`, { [idField]: own[idField] });
        // Its failed deployment goes with it: the reactors prune a removed database's deployment records.
        assert.equal((await berth.ok('deployment.all', { databaseId: created[idField] })).length, 1);
        await berth.ok(`${engine}.remove`, { [idField]: created[idField] });
        // The list now answers 404 for the removed database; the records themselves are gone from the read models.
        await berth.refused('deployment.all', { databaseId: created[idField] }, 404, 'databaseId');
        await eventually('its deployment records to be pruned', async () =>
          (await deploymentRecordsOf(berth, 'databaseId', created[idField])).length === 0);
      });
    });
  }

  it('removes the databases and compose services of a removed project, and frees their appNames', async () => {
    const { projectId: doomed } = await berth.ok('project.create', { name: 'doomed' });
    const databases = await Promise.all(ENGINES.map((engine) =>
      berth.ok(`${engine}.create`, { name: 'd', appName: 'd', projectId: doomed, ...databaseCredentials(engine) })));
    const compose = await berth.ok('compose.create', { name: 'c', projectId: doomed });
    await berth.ok('project.remove', { projectId: doomed });
    for (const [i, engine] of ENGINES.entries()) {
      assert.equal((await berth.call(`${engine}.one`, { [`${engine}Id`]: databases[i][`${engine}Id`] })).status, 404);
    }
    assert.equal((await berth.call('compose.one', { composeId: compose.composeId })).status, 404);
    const survivor = await berth.ok('compose.create', { name: 's', projectId });
    assert.equal((await berth.ok('compose.update', { composeId: survivor.composeId, appName: compose.appName })).appName, compose.appName);
  });

  for (const engine of BACKED_UP) {
    it(`shows the backups of a ${engine} database, and removes them with it`, async () => {
      const idField = `${engine}Id`;
      const database = await berth.ok(`${engine}.create`, { name: 'b', appName: 'b', projectId, ...databaseCredentials(engine) });
      const { destinationId } = await berth.ok('destination.create', {
        name: 'bucket', accessKey: 'AK', bucket: 'backups', region: 'r', endpoint: 'https://s3.example.com', secretAccessKey: 'SK',
      });
      const backup = await berth.ok('backup.create', {
        schedule: '0 3 * * *', prefix: 'nightly', destinationId, database: 'orders', databaseType: engine, [idField]: database[idField],
      });
      const one = await berth.ok(`${engine}.one`, { [idField]: database[idField] });
      assert.deepEqual(one.backups.map((b: { backupId: string }) => b.backupId), [backup.backupId]);
      await berth.ok(`${engine}.remove`, { [idField]: database[idField] });
      assert.equal((await berth.call('backup.one', { backupId: backup.backupId })).status, 404);
    });
  }
});
