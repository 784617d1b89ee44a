// One live backup of a database per folder of a destination, decided against the log: many
// backups of one database asking for one folder at once (created, or moved there), exactly one
// wins, the others answer 409 naming prefix, and one is stored. The folder is free again for the
// database's next backup once the one in it is removed or moves away; one stored before the
// folder's slot was claimed in the log keeps it all the same.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { DomainEvent } from '@berth/shared/events/event';
import { streamName } from '@berth/shared/events/event';
import { envelope } from '@berth/shared/runtime/execute';
import { startBerth, type TestBerth } from '../support/berth.ts';
import { oneWinner, type RaceAnswer } from '../support/one-winner.ts';
import { databaseCredentials } from '../support/databases.ts';

const RACERS = 50;
type Answer = RaceAnswer<{ backupId?: string }>;

describe('a backup folder asked by many backups of one database at once', () => {
  let berth: TestBerth;
  let projectId: string;
  before(async () => {
    berth = await startBerth();
    projectId = (await berth.ok('project.create', { name: 'slots' })).projectId;
  });
  after(() => berth.stop());

  const destination = async () => (await berth.ok('destination.create', {
    name: 'shared', accessKey: 'AK', bucket: 'backups', region: 'us-east-1', endpoint: 'https://s3.example.com', secretAccessKey: 'SK-123456',
  })).destinationId as string;
  let databases = 0;
  const database = async () => (await berth.ok('dbgamma.create', {
    name: 'main', appName: `slot-${++databases}`, projectId, ...databaseCredentials('dbgamma'),
  })).dbgammaId as string;
  const backupOf = (dbgammaId: string, destinationId: string, prefix: string) => ({
    schedule: '0 3 * * *', prefix, destinationId, database: 'app', databaseType: 'dbgamma', dbgammaId,
  });
  const create = (dbgammaId: string, destinationId: string, prefix: string) =>
    berth.call('backup.create', backupOf(dbgammaId, destinationId, prefix)) as Promise<Answer>;
  const move = (backupId: string, destinationId: string, prefix: string) =>
    berth.call('backup.update', { backupId, schedule: '0 3 * * *', prefix, destinationId, database: 'app' }) as Promise<Answer>;
  const race = (make: (i: number) => Promise<Answer>) => Promise.all(Array.from({ length: RACERS }, (_, i) => make(i)));

  /** The database's stored backups in `prefix`. */
  const storedIn = async (dbgammaId: string, prefix: string) =>
    ((await berth.ok('dbgamma.one', { dbgammaId })).backups as Array<{ prefix: string }>).filter((backup) => backup.prefix === prefix);

  it(`${RACERS} backups of one database created in one folder at once: one wins, one stored; free again once it is removed`, async () => {
    const dbgammaId = await database();
    const destinationId = await destination();
    const winner = oneWinner(await race(() => create(dbgammaId, destinationId, 'same')), 'prefix');
    assert.equal((await storedIn(dbgammaId, 'same')).length, 1);
    await berth.ok('backup.remove', { backupId: winner.body.backupId });
    oneWinner(await race(() => create(dbgammaId, destinationId, 'same')), 'prefix');
    assert.equal((await storedIn(dbgammaId, 'same')).length, 1);
  });

  it(`${RACERS} backups of one database moved to one folder at once: one wins; the folder it left is free again`, async () => {
    const dbgammaId = await database();
    const destinationId = await destination();
    const backups: string[] = [];
    for (let i = 0; i < RACERS; i++) backups.push((await berth.ok('backup.create', backupOf(dbgammaId, destinationId, `own-${i}`))).backupId);
    const answers = await Promise.all(backups.map((backupId) => move(backupId, destinationId, 'together')));
    oneWinner(answers, 'prefix');
    assert.equal((await storedIn(dbgammaId, 'together')).length, 1);
    const left = `own-${answers.findIndex((answer) => answer.status === 200)}`;
    assert.equal((await create(dbgammaId, destinationId, left)).status, 200);
  });

  it('keeps the folder of a backup stored before slots were claimed, refusing a second one naming prefix', async () => {
    const dbgammaId = await database();
    const destinationId = await destination();
    const backupId = `legacy${Math.random().toString(36).slice(2, 17)}`;
    const cause = { actorId: null, correlationId: 'legacy', causationId: null, occurredAt: new Date().toISOString() };
    const append = (stream: string, events: DomainEvent[]) =>
      berth.berth.infrastructure.eventStore.append(stream, events.map((event) => envelope(event, cause)), 'any');
    const claim = { key: `backupFolder:${destinationId}/old/`, owner: dbgammaId };
    await append(streamName('reservation', claim.key), [{ type: 'NameReserved', data: claim }]);
    await append(streamName('backup', backupId), [{ type: 'BackupCreated', data: {
      ...backupOf(dbgammaId, destinationId, 'old'), backupId, enabled: true, dbalphaId: null, dbbetaId: null, dbdeltaId: null,
      dbepsilonId: null, createdAt: new Date().toISOString(), keepLatest: null,
    } }]);
    await berth.berth.infrastructure.readStore.waitFor(await berth.head(), 5_000);
    await berth.refused('backup.create', backupOf(dbgammaId, destinationId, 'old'), 409, 'prefix');
    await berth.ok('backup.remove', { backupId });
    assert.equal((await create(dbgammaId, destinationId, 'old')).status, 200);
  });
});
