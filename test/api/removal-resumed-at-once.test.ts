// Finishing the removals left part-way at start, as several API processes starting at once do, and
// when a removal fails again: the start goes on either way, and says nothing but one line per failure.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { AnyAggregate } from '@berth/shared/domain/aggregate';
import { applicationAggregate } from '@berth/shared/domain/application/application';
import { databaseAggregates } from '@berth/shared/domain/database/database';
import { finishUnfinishedRemovals, UNFINISHED_KINDS } from '@berth/command-api/unfinished-removals';
import { startBerth, type TestBerth } from '../support/berth.ts';
import { databaseCredentials } from '../support/databases.ts';
import { executeInLog } from '../support/log.ts';

describe('finishing removals left part-way', () => {
  let berth: TestBerth;
  let projectId: string;
  before(async () => {
    berth = await startBerth();
    ({ projectId } = await berth.ok('project.create', { name: 'p' }));
  });
  after(() => berth.stop());

  const mark = (aggregate: AnyAggregate, id: string) =>
    executeInLog(berth, aggregate, id, { type: 'BeginRemoval', data: { [aggregate.idField]: id } });

  it('three starts at once: each service is removed once, and none of them says anything', async () => {
    const applicationIds: string[] = [];
    for (let i = 0; i < 3; i++) {
      const { applicationId } = await berth.ok('application.create', { name: `web ${i}`, projectId });
      await berth.ok('port.create', { applicationId, publishedPort: 43520 + i, targetPort: 80 });
      await mark(applicationAggregate as unknown as AnyAggregate, applicationId);
      applicationIds.push(applicationId);
    }
    const { dbepsilonId } = await berth.ok('dbepsilon.create', { name: 'cache', appName: 'at-once-cache', projectId, ...databaseCredentials('dbepsilon') });
    await mark(databaseAggregates.dbepsilon as unknown as AnyAggregate, dbepsilonId);
    const lines: string[] = [];
    await Promise.all([1, 2, 3].map(() => finishUnfinishedRemovals(berth.berth.infrastructure, (line) => lines.push(line))));
    assert.deepEqual(lines, []);
    for (const applicationId of applicationIds) assert.equal((await berth.call('application.one', { applicationId })).status, 404);
    assert.equal((await berth.call('dbepsilon.one', { dbepsilonId })).status, 404);
    const { events } = await berth.berth.infrastructure.eventStore.readStream(`dbepsilon-${dbepsilonId}`);
    assert.equal(events.filter((event) => event.type === 'DbepsilonRemoved').length, 1);
    await berth.ok('dbepsilon.create', { name: 'cache again', appName: 'at-once-cache', projectId, ...databaseCredentials('dbepsilon') });
  });

  it('a removal that fails again is said in one line and left for the next start', async () => {
    const { applicationId } = await berth.ok('application.create', { name: 'stuck', projectId });
    await mark(applicationAggregate as unknown as AnyAggregate, applicationId);
    const failing = UNFINISHED_KINDS.map((kind) => ({ ...kind, remove: () => Promise.reject(new Error('the log is away')) }));
    const lines: string[] = [];
    await finishUnfinishedRemovals(berth.berth.infrastructure, (line) => lines.push(line), failing);
    assert.equal(lines.length, 1, lines.join('\n'));
    assert.match(lines[0]!, new RegExp(`application ${applicationId}.*the log is away`));
    await berth.refused('application.update', { applicationId, name: 'renamed' }, 409, 'applicationId');
    // The next start finishes it.
    await finishUnfinishedRemovals(berth.berth.infrastructure, (line) => lines.push(line));
    assert.equal(lines.length, 1, lines.join('\n'));
    assert.equal((await berth.call('application.one', { applicationId })).status, 404);
  });
});
