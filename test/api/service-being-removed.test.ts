// A service whose removal has begun (one that stopped part-way leaves it so) refuses every change a
// caller asks for with 409 naming its id field, before any claim is taken, so the refusal appends
// nothing; removing it again finishes the removal.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { AnyAggregate } from '@berth/shared/domain/aggregate';
import { applicationAggregate } from '@berth/shared/domain/application/application';
import { composeAggregate } from '@berth/shared/domain/compose/compose';
import { databaseAggregates } from '@berth/shared/domain/database/database';
import { startBerth, type TestBerth } from '../support/berth.ts';
import { databaseCredentials } from '../support/databases.ts';
import { executeInLog } from '../support/log.ts';

describe('a service being removed', () => {
  let berth: TestBerth;
  let projectId: string;
  let otherProjectId: string;
  before(async () => {
    berth = await startBerth();
    ({ projectId } = await berth.ok('project.create', { name: 'p' }));
    ({ projectId: otherProjectId } = await berth.ok('project.create', { name: 'q' }));
  });
  after(() => berth.stop());

  /** Begins the removal as a removal that stopped part-way left it. */
  const beginRemoval = (aggregate: AnyAggregate, id: string) =>
    executeInLog(berth, aggregate, id, { type: 'BeginRemoval', data: { [aggregate.idField]: id } });

  async function refusedAppendingNothing(operation: string, input: Record<string, unknown>, idField: string) {
    const head = await berth.head();
    const answer = await berth.call(operation, input);
    assert.equal(answer.status, 409, JSON.stringify(answer.body));
    assert.equal((answer.body as { issues: { path: string }[] }).issues[0]?.path, idField);
    assert.equal(await berth.head(), head, `the refused ${operation} appended events`);
  }

  it('an application refuses a rename and a move, appending nothing, and its removal finishes', async () => {
    const { applicationId } = await berth.ok('application.create', { name: 'app', projectId });
    await beginRemoval(applicationAggregate as unknown as AnyAggregate, applicationId);
    await refusedAppendingNothing('application.update', { applicationId, appName: 'renamed-app', projectId: otherProjectId }, 'applicationId');
    await refusedAppendingNothing('application.markRunning', { applicationId }, 'applicationId');
    await refusedAppendingNothing('port.create', { applicationId, publishedPort: 45777, targetPort: 80 }, 'applicationId');
    await refusedAppendingNothing('redirects.create', { applicationId, regex: '^/a', replacement: '/b', permanent: false }, 'applicationId');
    await refusedAppendingNothing('security.create', { applicationId, username: 'late', password: 'a late password' }, 'applicationId');
    await berth.ok('application.delete', { applicationId });
    assert.equal((await berth.call('application.one', { applicationId })).status, 404);
  });

  it('a database refuses an update, a new external port and a status change, appending nothing, and its removal finishes', async () => {
    const { dbgammaId } = await berth.ok('dbgamma.create', { name: 'db', appName: 'db-being-removed', projectId, ...databaseCredentials('dbgamma') });
    await beginRemoval(databaseAggregates.dbgamma as unknown as AnyAggregate, dbgammaId);
    await refusedAppendingNothing('dbgamma.update', { dbgammaId, appName: 'db-renamed', externalPort: 45999 }, 'dbgammaId');
    await refusedAppendingNothing('dbgamma.saveExternalPort', { dbgammaId, externalPort: 45888 }, 'dbgammaId');
    await refusedAppendingNothing('dbgamma.changeStatus', { dbgammaId, applicationStatus: 'running' }, 'dbgammaId');
    await berth.ok('dbgamma.remove', { dbgammaId });
    assert.equal((await berth.call('dbgamma.one', { dbgammaId })).status, 404);
  });

  it('a compose service refuses a rename, appending nothing, and its removal finishes', async () => {
    const { composeId } = await berth.ok('compose.create', { name: 'stack', projectId });
    await beginRemoval(composeAggregate as unknown as AnyAggregate, composeId);
    await refusedAppendingNothing('compose.update', { composeId, appName: 'stack-renamed' }, 'composeId');
    await berth.ok('compose.delete', { composeId });
    assert.equal((await berth.call('compose.one', { composeId })).status, 404);
  });
});
