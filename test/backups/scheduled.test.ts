// A backup every 2 seconds in a reactors process of its own (roles apart, over NATS), which a second
// reactors process on the folder does not join: each tick runs once, never twice, and keepLatest
// leaves the newest three objects. (Half a minute, to keep CI lean.)
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { openS3Storage } from '@berth/shared/adapters/s3/object-storage';
import { startBerth, type TestBerth } from '../support/berth.ts';
import { databaseCredentials } from '../support/databases.ts';
import { freePort, removeService, runDatabase, until } from '../support/database-services.ts';
import { startNats, type NatsServer } from '../support/nats.ts';
import { startS3, type TestS3 } from '../support/s3.ts';

const LAUNCH = new URL('../../shared/runtime/roles-cli.ts', import.meta.url).pathname;
const WATCH_MS = 30_000;

/** A reactors process of its own on the same data folder, once its reactors run: over NATS, as roles run apart. */
async function reactorsProcess(dataDir: string, natsUrl: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', LAUNCH], {
    env: { ...process.env, BERTH_DATA_DIR: dataDir, BERTH_ROLES: 'reactors', BERTH_NATS_URL: natsUrl, BERTH_LOG_LEVEL: 'silent' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk;
      if (output.includes('reactors: running')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the reactors process exited with ${code}: ${output}`)));
  });
  return child;
}

describe('scheduled backups in a reactors process of its own', { timeout: 180_000 }, () => {
  let berth: TestBerth;
  let s3: TestS3;
  let appName = '';
  const processes: ChildProcess[] = [];
  let nats: NatsServer;
  before(async () => { [berth, s3, nats] = await Promise.all([startBerth(), startS3(['backups']), startNats()]); });
  after(async () => {
    for (const child of processes) child.kill('SIGTERM');
    await Promise.all(processes.map((child) => new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)))));
    if (appName) await removeService(appName);
    await Promise.all([berth.stop(), s3.stop(), nats.stop()]);
  });

  it('runs each tick once, keeps the latest three objects, and stops when disabled', async () => {
    const { projectId } = await berth.ok('project.create', { name: 'scheduled' });
    const db = await berth.ok('dbgamma.create', { name: 'ticks', appName: 'ticks', projectId, ...databaseCredentials('dbgamma', { password: 'Tick-Pass-99' }) });
    const record = await berth.ok('dbgamma.saveExternalPort', { dbgammaId: db.dbgammaId, externalPort: await freePort() });
    appName = record.appName;
    await runDatabase('dbgamma', record);
    processes.push(await reactorsProcess(berth.dataDir, nats.url));
    // Each role runs once per data folder: a second reactors process would run the ticks again.
    await assert.rejects(reactorsProcess(berth.dataDir, nats.url), /exited with 1/);

    const { destinationId } = await berth.ok('destination.create', { name: 'local', ...s3.destination('backups') });
    const { backupId } = await berth.ok('backup.create', {
      schedule: '*/2 * * * * *', prefix: 'ticks', destinationId, database: 'app', databaseType: 'dbgamma', dbgammaId: db.dbgammaId, keepLatest: 3,
    });
    // The reactor processes take a while to start on a busy machine: count from their first run.
    await until('the first scheduled run', async () => (await berth.ok('backup.runs', { backupId })).length > 0, 90_000);
    await new Promise((resolve) => setTimeout(resolve, WATCH_MS));
    await berth.ok('backup.update', { backupId, schedule: '*/2 * * * * *', prefix: 'ticks', destinationId, database: 'app', enabled: false });
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const stopped = (await berth.ok('backup.runs', { backupId })).length;

    const runs = await berth.ok('backup.runs', { backupId });
    const ticks = runs.map((run: { runId: string }) => Number(run.runId.split('.').pop()));
    assert.equal(new Set(ticks).size, runs.length, 'a tick ran twice');
    // A tick that comes while the previous one still runs is skipped (croner's protect), so a loaded
    // machine runs fewer than one a tick; never two for one tick.
    assert.ok(runs.length >= 5, `only ${runs.length} runs in ${WATCH_MS / 1000} s`);
    for (const tick of ticks) assert.equal(tick % 2000, 0, 'a run is named after its tick');
    assert.ok(runs.every((run: { status: string }) => run.status === 'done'), JSON.stringify(runs.filter((r: { status: string }) => r.status !== 'done')));
    const keys = (await openS3Storage(s3.destination('backups')).list('ticks/')).map((o) => o.key);
    assert.deepEqual(keys, runs.slice(0, 3).map((run: { key: string }) => run.key).reverse(), 'the newest three objects are kept');

    await new Promise((resolve) => setTimeout(resolve, 4_000));
    assert.equal((await berth.ok('backup.runs', { backupId })).length, stopped, 'a disabled backup ran');
    await until('nothing running', async () => runs.every((run: { status: string }) => run.status !== 'running'));
  });
});
