// A removal that stopped part-way (Berth killed after the mark in the service's own stream, before
// the record's deletion) is finished by the next start, acting as no account: the service is gone
// and its names and ports are free for a new one. The log is left as the crash leaves it: the mark
// appended to it, then Berth stopped and started again on the same data folder.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { AnyAggregate } from '@berth/shared/domain/aggregate';
import { applicationAggregate } from '@berth/shared/domain/application/application';
import { composeAggregate } from '@berth/shared/domain/compose/compose';
import { databaseAggregates } from '@berth/shared/domain/database/database';
import { usageAggregate, usageKey } from '@berth/shared/domain/usage/usage';
import { PROJECT_USE } from '@berth/command-api/handlers/project-use';
import { startBerth, type TestBerth } from '../support/berth.ts';
import { databaseCredentials } from '../support/databases.ts';
import { executeInLog } from '../support/log.ts';

// Host ports of this test's range: only claimed in the log, never bound.
const APP_PORT = 43510;
const DB_PORT = 43511;

describe('a removal that stopped part-way, at the next start', () => {
  let berth: TestBerth;
  let projectId: string;
  let applicationId: string;
  let dbgammaId: string;
  let composeId: string;
  let keptApplicationId: string;
  let retiredProjectId: string;

  /** The mark, as the removal appends it first: `fromProject` when a project's removal asked for it. */
  const mark = (aggregate: AnyAggregate, id: string, fromProject?: string) =>
    executeInLog(berth, aggregate, id, { type: 'BeginRemoval', data: { [aggregate.idField]: id, ...(fromProject && { projectId: fromProject }) } });

  before(async () => {
    berth = await startBerth();
    ({ projectId } = await berth.ok('project.create', { name: 'p' }));
    ({ applicationId } = await berth.ok('application.create', { name: 'web', appName: 'resumed-web', projectId }));
    await berth.ok('port.create', { applicationId, publishedPort: APP_PORT, targetPort: 80 });
    await berth.ok('redirects.create', { applicationId, regex: '^/a', replacement: '/b', permanent: false });
    ({ dbgammaId } = await berth.ok('dbgamma.create', { name: 'db', appName: 'resumed-db', projectId, ...databaseCredentials('dbgamma') }));
    await berth.ok('dbgamma.saveExternalPort', { dbgammaId, externalPort: DB_PORT });
    await mark(applicationAggregate as unknown as AnyAggregate, applicationId);
    await mark(databaseAggregates.dbgamma as unknown as AnyAggregate, dbgammaId);

    // A project's removal killed once it had marked one of its services (a compose service).
    const { projectId: removedFrom } = await berth.ok('project.create', { name: 'half removed' });
    ({ composeId } = await berth.ok('compose.create', { name: 'stack', appName: 'resumed-stack', projectId: removedFrom }));
    ({ applicationId: keptApplicationId } = await berth.ok('application.create', { name: 'kept', projectId: removedFrom }));
    await mark(composeAggregate as unknown as AnyAggregate, composeId, removedFrom);

    // A project's removal killed after its services were gone and it was retired, before its record went.
    ({ projectId: retiredProjectId } = await berth.ok('project.create', { name: 'retired' }));
    const key = usageKey('project', retiredProjectId);
    await executeInLog(berth, usageAggregate as unknown as AnyAggregate, key, { type: 'Retire', data: { key, words: PROJECT_USE, why: 'test' } });

    // Killed: nothing more is appended; the next start runs on the same data folder.
    await berth.stop({ keepData: true });
    berth = await startBerth({ dataDir: berth.dataDir });
  });
  after(() => berth.stop());

  it('an application is gone, with its port and redirect, and its appName and host port are free', async () => {
    assert.equal((await berth.call('application.one', { applicationId })).status, 404);
    // Finished on no account's behalf.
    const { events } = await berth.berth.infrastructure.eventStore.readStream(`application-${applicationId}`);
    assert.deepEqual(events.slice(-2).map((event) => [event.type, event.metadata.actorId]), [['ApplicationRemovalBegun', null], ['ApplicationDeleted', null]]);
    const { applicationId: next } = await berth.ok('application.create', { name: 'web again', appName: 'resumed-web', projectId });
    await berth.ok('port.create', { applicationId: next, publishedPort: APP_PORT, targetPort: 80 });
  });

  it('a database is gone, and its appName and external port are free', async () => {
    assert.equal((await berth.call('dbgamma.one', { dbgammaId })).status, 404);
    const { dbgammaId: next } = await berth.ok('dbgamma.create', { name: 'db again', appName: 'resumed-db', projectId, ...databaseCredentials('dbgamma') });
    await berth.ok('dbgamma.saveExternalPort', { dbgammaId: next, externalPort: DB_PORT });
  });

  it('a service a project\'s removal had marked is gone; the project, which has no mark, keeps its other services', async () => {
    assert.equal((await berth.call('compose.one', { composeId })).status, 404);
    await berth.ok('application.one', { applicationId: keptApplicationId });
    await berth.ok('compose.create', { name: 'stack again', appName: 'resumed-stack', projectId });
  });

  it('a project retired before its record went is gone', async () => {
    assert.equal((await berth.call('project.one', { projectId: retiredProjectId })).status, 404);
  });
});
