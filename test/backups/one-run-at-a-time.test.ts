// One run at a time per backup: while a scheduled run goes (its upload hangs here), a schedule
// edited (a new cron job) skips its ticks instead of starting a run beside it, and a manual backup
// or a restore asked then answers 409 naming the run under way, asking nothing of the reactors.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startBerthWithReactors, type TestBerth } from '../support/berth.ts';
import { databaseCredentials } from '../support/databases.ts';
import { eventually } from '../support/engine.ts';
import { DATABASE_IMAGE, removeService } from '../support/database-services.ts';
import { startS3, type TestS3 } from '../support/s3.ts';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.ts';

type Run = { runId: string; status: string; trigger: string; key: string };

describe('a backup with a scheduled run under way', { timeout: 300_000 }, () => {
  let s3: TestS3;
  let proxy: TcpProxy;
  let berth: TestBerth;
  let appName = '';
  let backupId = '';
  let fields: Record<string, string> = {};
  let going: Run;
  const runs = async (): Promise<Run[]> => berth.ok('backup.runs', { backupId });

  before(async () => {
    s3 = await startS3(['backups']);
    proxy = await startTcpProxy({ host: '127.0.0.1', port: Number(new URL(s3.endpoint).port) });
    berth = await startBerthWithReactors({ config: { actionWaitMs: 3000 } });
    const { projectId } = await berth.ok('project.create', { name: 'busy' });
    const db = await berth.ok('dbgamma.create', {
      name: 'busy', appName: 'berth-test-one-run', projectId, containerImage: DATABASE_IMAGE.dbgamma, ...databaseCredentials('dbgamma'),
    });
    appName = db.appName;
    const deploy = await berth.call('dbgamma.deploy', { dbgammaId: db.dbgammaId });
    assert.ok(deploy.status === 200 || deploy.status === 409, JSON.stringify(deploy.body));
    await eventually('the database to be deployed', async () =>
      (await berth.ok('dbgamma.one', { dbgammaId: db.dbgammaId })).applicationStatus === 'done', 120_000);
    const { destinationId } = await berth.ok('destination.create', { name: 'hangs', ...s3.destination('backups'), endpoint: `http://${proxy.address}` });
    fields = { prefix: 'busy', destinationId, database: 'app' };
    ({ backupId } = await berth.ok('backup.create', { ...fields, schedule: '0 3 29 2 *', enabled: false, databaseType: 'dbgamma', dbgammaId: db.dbgammaId }));
    // Every upload hangs from here on: a run that starts stays under way.
    proxy.stall();
    await berth.ok('backup.update', { ...fields, backupId, schedule: '*/2 * * * * *', enabled: true });
    going = (await eventually('a scheduled run under way', async () => (await runs()).length > 0 && runs(), 60_000))[0]!;
    assert.equal(going.trigger, 'schedule');
  });

  after(async () => {
    proxy?.restore();
    await berth?.stop();
    if (appName) await removeService(appName);
    await Promise.all([proxy?.stop(), s3?.stop()]);
  });

  it('starts no run beside it on ticks of its edited schedule (a new cron job)', async () => {
    await berth.ok('backup.update', { ...fields, backupId, schedule: '*/3 * * * * *', enabled: true });
    await new Promise((resolve) => setTimeout(resolve, 7_000));
    const all = await runs();
    assert.deepEqual(all.map((run) => run.runId), [going.runId], `runs beside the one under way: ${JSON.stringify(all)}`);
  });

  it('answers a manual backup or a restore asked meanwhile 409 naming the run under way, and runs neither', async () => {
    const namesIt = new RegExp(going.runId.replace('.', '\\.'));
    const asked = await berth.call('backup.manualBackupDbgamma', { backupId });
    assert.equal(asked.status, 409, JSON.stringify(asked.body));
    assert.equal(asked.body.issues[0]?.path, 'backupId', JSON.stringify(asked.body));
    assert.match(asked.body.message, namesIt);
    const restore = await berth.call('backup.restore', { backupId, key: going.key });
    assert.equal(restore.status, 409, JSON.stringify(restore.body));
    assert.match(restore.body.message, namesIt);
    await berth.ok('backup.update', { ...fields, backupId, schedule: '*/3 * * * * *', enabled: false });
    assert.deepEqual((await runs()).filter((run) => run.trigger === 'manual'), [], 'a manual run or restore was started');
  });
});
