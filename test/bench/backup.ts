// Backup throughput: a ~100 MB PostgreSQL-like database dumped, compressed and uploaded by
// `backup.manualBackupDbgamma`, against the engine's own dump piped to a file on this machine
// (the bare ceiling), and the resident memory of the process that ran the backup (streamed, so
// it must stay flat). Needs the engine and the database test images (test/setup.sh).
import { spawn } from 'node:child_process';
import { pipeline } from 'node:stream/promises';
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { startBerthWithReactors } from '../support/berth.ts';
import { databaseCredentials } from '../support/databases.ts';
import { DATABASE_IMAGE, docker, freePort, removeService } from '../support/database-services.ts';
import { startS3 } from '../support/s3.ts';
import { ENGINE_PROFILES } from '@berth/shared/domain/database/profile';

const MB = 1024 * 1024;
const ROWS = 650_000; // ~100 MB of table data

/** Times the engine's own dump of `app` written to a file: what a backup can at best match. */
async function bareDump(containerId: string, file: string): Promise<number> {
  const started = performance.now();
  const child = spawn('docker', ['exec', containerId, ...ENGINE_PROFILES.dbgamma.dump('app')], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  await pipeline(child.stdout, createWriteStream(file));
  if ((await exited) !== 0) throw new Error('pg_dump failed');
  return performance.now() - started;
}

export async function benchBackup(): Promise<{ ratio: number; berthMs: number; bareMs: number; dumpMb: number; databaseMb: number; rssGrowthMb: number }> {
  // With the reactors, which run backups and restores.
  const [berth, s3] = await Promise.all([startBerthWithReactors({ config: { actionWaitMs: 600_000 } }), startS3(['bench'])]);
  let appName = '';
  const scratch = mkdtempSync(join(tmpdir(), 'berth-bench-dump-'));
  try {
    const { projectId } = await berth.ok('project.create', { name: 'bench' });
    const created = await berth.ok('dbgamma.create', {
      name: 'bench', appName: 'bench-backup', projectId, containerImage: DATABASE_IMAGE.dbgamma, ...databaseCredentials('dbgamma', { password: 'Bench-Pass-1' }),
    });
    const record = await berth.ok('dbgamma.saveExternalPort', { dbgammaId: created.dbgammaId, externalPort: await freePort() });
    appName = record.appName;
    await berth.ok('dbgamma.deploy', { dbgammaId: created.dbgammaId });
    const [containerId] = (await docker('ps', '-q', '--filter', `label=com.docker.swarm.service.name=${appName}`)).trim().split('\n');
    await docker('exec', containerId!, 'psql', '-qtA', '-U', 'app', '-d', 'app', '-c',
      `CREATE TABLE big AS SELECT g AS id, md5(g::text) || md5(random()::text) || md5(random()::text) || md5(random()::text) AS body FROM generate_series(1, ${ROWS}) g`);
    const databaseMb = Number((await docker('exec', containerId!, 'psql', '-qtA', '-U', 'app', '-d', 'app', '-c', "SELECT pg_database_size('app')")).trim()) / MB;

    const file = join(scratch, 'bare.dump');
    await bareDump(containerId!, file); // warm the page cache, as the backup will find it
    const bareMs = await bareDump(containerId!, file);
    const dumpMb = statSync(file).size / MB;

    // Checked first, as an operator does: the object-storage client is loaded then, not inside the measured run.
    await berth.ok('destination.testConnection', { name: 'bench', ...s3.destination('bench') });
    const { destinationId } = await berth.ok('destination.create', { name: 'bench', ...s3.destination('bench') });
    const { backupId } = await berth.ok('backup.create', { schedule: '0 3 * * *', prefix: 'bench', destinationId, database: 'app', databaseType: 'dbgamma', dbgammaId: created.dbgammaId });
    global.gc?.();
    const rssBefore = process.memoryUsage().rss;
    let rssPeak = rssBefore;
    const sampler = setInterval(() => { rssPeak = Math.max(rssPeak, process.memoryUsage().rss); }, 20);
    const started = performance.now();
    const run = await berth.ok('backup.manualBackupDbgamma', { backupId });
    const berthMs = performance.now() - started;
    clearInterval(sampler);
    if (run.status !== 'done') throw new Error(`the backup failed: ${run.error}`);
    return { ratio: berthMs / bareMs, berthMs, bareMs, dumpMb, databaseMb, rssGrowthMb: (rssPeak - rssBefore) / MB };
  } finally {
    if (appName) await removeService(appName);
    rmSync(scratch, { recursive: true, force: true });
    await Promise.all([berth.stop(), s3.stop()]);
  }
}

const fmt = (value: number, digits = 1) => value.toFixed(digits);

/** The figures as rows of the bench's table. */
export function backupRows(figures: Awaited<ReturnType<typeof benchBackup>>) {
  const { ratio, berthMs, bareMs, dumpMb, databaseMb, rssGrowthMb } = figures;
  return [
    { figure: `backup of a ${fmt(databaseMb, 0)} MB dbgamma (dump ${fmt(dumpMb, 0)} MB), s`, value: fmt(berthMs / 1000), target: '≤ 1.3× bare dump', met: ratio <= 1.3 ? 'yes' : 'NO', ratio: `×${fmt(ratio, 2)} of pg_dump to a file (${fmt(bareMs / 1000)} s)` },
    { figure: '(backup: growth of the API process RSS, MB)', value: fmt(rssGrowthMb), target: 'flat', met: rssGrowthMb < databaseMb / 2 ? 'yes' : 'NO', ratio: '' },
  ];
}
