// A backup counts among its database's users in the log, as a service does among its project's:
// a database removed while backups of it are created takes every one created with it, so none is
// left behind to keep its destination from being removed; one created for a database already
// gone is refused, 404 naming the database's id field, and appends nothing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startBerth, type TestBerth } from '../support/berth.ts';
import { databaseCredentials } from '../support/databases.ts';
import type { RaceAnswer } from '../support/one-winner.ts';
import { forgetUse, usageOf } from '../support/log.ts';

const RACERS = 30;
const ROUNDS = 5;
type Answer = RaceAnswer<{ backupId?: string }>;

describe('a database removed while backups of it are created', () => {
  let berth: TestBerth;
  let projectId: string;
  before(async () => {
    berth = await startBerth();
    ({ projectId } = await berth.ok('project.create', { name: 'backups' }));
  });
  after(() => berth.stop());

  let databases = 0;
  const database = async () => (await berth.ok('dbgamma.create', {
    name: 'main', appName: `doomed-${++databases}`, projectId, ...databaseCredentials('dbgamma'),
  })).dbgammaId as string;
  const destination = async () => (await berth.ok('destination.create', {
    name: 'bucket', accessKey: 'AK', bucket: 'backups', region: 'us-east-1', endpoint: 'https://s3.example.test', secretAccessKey: 'SK-123456',
  })).destinationId as string;
  // Each in a folder of its own: two backups of a database in one folder are refused.
  const backupOf = (dbgammaId: string, destinationId: string, prefix: string) => ({
    schedule: '0 3 * * *', prefix, destinationId, database: 'app', databaseType: 'dbgamma', dbgammaId,
  });

  /** The backups the read model still lists under the database, once it has caught up with the log. */
  async function listedFor(dbgammaId: string) {
    const { eventStore, readStore } = berth.berth.infrastructure;
    await readStore.waitFor(await eventStore.head(), 5_000);
    return readStore.find('backup', 'dbgammaId', dbgammaId);
  }

  /** The users the log counts for a database, and whether it is retired. */
  it(`takes every backup created with it (${RACERS} at once): none outlives it, and its destination can be removed after`, async () => {
    let removals = 0;
    const outlived: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const dbgammaId = await database();
      const destinationId = await destination();
      const legacy = await berth.ok('backup.create', backupOf(dbgammaId, destinationId, 'legacy'));
      await forgetUse(berth, 'database', dbgammaId, legacy.backupId);
      const [removed, ...created] = await Promise.all([
        (async () => { await new Promise((resolve) => setTimeout(resolve, round)); return berth.call('dbgamma.remove', { dbgammaId }); })(),
        ...Array.from({ length: RACERS }, (_, i) => berth.call('backup.create', backupOf(dbgammaId, destinationId, `p${i}`)) as Promise<Answer>),
      ]);
      if (removed!.status !== 200) {
        // Backups kept coming for every round of the removal: refused as a whole, naming the database.
        assert.equal(removed!.status, 409, JSON.stringify(removed!.body));
        continue;
      }
      removals++;
      for (const answer of created) {
        if (answer.status === 200) continue;
        assert.equal(answer.status, 404, JSON.stringify(answer.body));
        assert.deepEqual(answer.body.issues?.map((issue) => issue.path), ['dbgammaId']);
      }
      const made = [legacy.backupId, ...created.flatMap((answer) => (answer.status === 200 ? [answer.body.backupId!] : []))];
      for (const backupId of made) {
        if ((await berth.call('backup.one', { backupId })).status !== 404) outlived.push(backupId);
      }
      outlived.push(...(await listedFor(dbgammaId)).map((doc) => String(doc.backupId)).filter((id) => !outlived.includes(id)));
      if (outlived.length > 0) continue;
      assert.deepEqual(await usageOf(berth, 'database', dbgammaId), { users: [], retired: true });
      await berth.ok('destination.remove', { destinationId });
    }
    assert.deepEqual(outlived, [], `${outlived.length} backup(s) outlived their database`);
    assert.ok(removals > 0, 'no removal got through');
  });

  it('refuses a backup for a database already removed, 404 naming dbgammaId, appending nothing', async () => {
    const dbgammaId = await database();
    const destinationId = await destination();
    await berth.ok('dbgamma.remove', { dbgammaId });
    await berth.refused('backup.create', backupOf(dbgammaId, destinationId, 'late'), 404, 'dbgammaId');
    await berth.ok('destination.remove', { destinationId });
  });
});
