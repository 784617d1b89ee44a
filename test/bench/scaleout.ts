// The scaled-out figures: rebuild throughput from 100,000 events into the MongoDB stand-in;
// projection lag p99 under the spine's command load in both modes (sampled from /metrics every
// 100 ms: the age of the oldest event a projection has not applied); commands through two API
// processes (each with its own connections to the stores) as a ratio of one embedded process.
// The scaled-out stack here is stand-ins (EventStoreDB test server, jongodb) plus a real
// nats-server: its figures say what Berth costs on them, not what real servers would give.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { MongoReadStore } from '@berth/shared/adapters/mongodb/read-store';
import { freePort } from '../support/http.ts';
import { freshDatabase, startStandIn } from '../support/mongo.ts';
import { startNats } from '../support/nats.ts';
import { eventually, startRole } from '../support/role-process.ts';
import { benchRebuild } from './rebuild.ts';
import { CONNECTIONS, SECONDS, commandMix, prepare, startServer } from './kit.ts';

interface Row { figure: string; value: string; target: string; met: string; ratio: string }
const fmt = (value: number, digits = 0) => value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const p99 = (samples: number[]) => [...samples].sort((a, b) => a - b)[Math.floor(samples.length * 0.99)] ?? 0;

/** Runs the command load on every URL at once (connections shared out), sampling the projection lag. */
async function loadWithLag(urls: string[], requests: autocannon.Request[], seconds: number) {
  const lags: number[] = [];
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      const text = await fetch(`${urls[0]}/metrics`).then((response) => response.text()).catch(() => '');
      const values = [...text.matchAll(/^berth_consumer_lag_seconds\{consumer="(?!relay")[^"]+"\} (\S+)$/gm)].map((match) => Number(match[1]));
      if (values.length > 0) lags.push(Math.max(...values) * 1000);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  const results = await Promise.all(urls.map((url) =>
    autocannon({ url, connections: CONNECTIONS / urls.length, duration: seconds, requests })));
  sampling = false;
  await sampler;
  const total = results.reduce((sum, result) => sum + result.requests.average, 0);
  const failed = results.reduce((sum, result) => sum + result.non2xx + result.errors + result.timeouts, 0);
  if (failed > 0) console.warn(`  ! ${failed} requests failed`);
  return { perSecond: total, p99Latency: Math.max(...results.map((result) => result.latency.p99)), lagP99: p99(lags) };
}

async function scaledOutStack() {
  const dataDir = mkdtempSync(join(tmpdir(), 'berth-bench-scaleout-'));
  const [mongo, nats] = await Promise.all([startStandIn(), startNats()]);
  const esdb = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./eventstoredb-process.ts', import.meta.url))], { stdio: ['ignore', 'pipe', 'inherit'] });
  const esdbUrl = await new Promise<string>((resolve) => createInterface({ input: esdb.stdout! }).once('line', resolve));
  const env = {
    BERTH_EVENTSTORE_URL: esdbUrl, BERTH_MONGO_URL: `${mongo.url}/${freshDatabase()}`, BERTH_NATS_URL: nats.url,
    BERTH_DATA_DIR: dataDir, BERTH_INSTANCE_KEY: randomBytes(32).toString('base64'), HOST: '127.0.0.1', BERTH_LOG_LEVEL: 'error',
  };
  const roles = [startRole('projections', env)];
  const urls: string[] = [];
  for (let i = 0; i < 2; i++) {
    const port = await freePort();
    roles.push(startRole('api', { ...env, PORT: String(port) }));
    urls.push(`http://127.0.0.1:${port}`);
  }
  for (const url of urls) await eventually(async () => (await fetch(`${url}/health`)).ok, 120_000, `${url} answers`);
  return {
    urls, dataDir,
    async stop() {
      for (const { child } of roles) child.kill('SIGTERM');
      await Promise.all(roles.map(({ exited }) => exited));
      esdb.kill('SIGKILL');
      await Promise.all([mongo.stop(), nats.stop()]);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function benchScaleout(): Promise<Row[]> {
  const rows: Row[] = [];
  console.log('- scaled out: one embedded process, for comparison');
  const embedded = await startServer('berth');
  const one = await prepare(embedded);
  await loadWithLag([embedded.url], commandMix(one.token, one.projectIds), 2);
  const alone = await loadWithLag([embedded.url], commandMix(one.token, one.projectIds), SECONDS);
  await embedded.stop();

  console.log('- scaled out: two API + one projections process on EventStoreDB (test server), MongoDB (jongodb), NATS');
  const stack = await scaledOutStack();
  try {
    const two = await prepare({ url: stack.urls[0]!, dataDir: stack.dataDir });
    await loadWithLag(stack.urls, commandMix(two.token, two.projectIds), 2);
    const apart = await loadWithLag(stack.urls, commandMix(two.token, two.projectIds), SECONDS);
    rows.push(
      { figure: 'commands/s, one embedded process', value: fmt(alone.perSecond), target: '', met: '', ratio: '100.0 %' },
      { figure: 'commands/s, two API processes (stand-ins)', value: fmt(apart.perSecond), target: '', met: '', ratio: `${fmt((100 * apart.perSecond) / alone.perSecond, 1)} %` },
      { figure: 'commands p99 ms, embedded / scaled out', value: `${alone.p99Latency} / ${apart.p99Latency}`, target: '', met: '', ratio: '' },
      { figure: 'projection lag p99 ms, embedded / scaled out', value: `${fmt(alone.lagP99)} / ${fmt(apart.lagP99)}`, target: '', met: '', ratio: '' },
    );
  } finally {
    await stack.stop();
  }

  console.log('- scaled out: rebuild of 100,000 events into the MongoDB stand-in');
  const mongo = await startStandIn();
  try {
    const rebuild = await benchRebuild(100_000, () => MongoReadStore.connect(mongo.url, { database: freshDatabase() }));
    rows.push({ figure: 'rebuild events/s into MongoDB (jongodb)', value: fmt(rebuild.rebuildPerSecond), target: '', met: '', ratio: '' });
  } finally {
    await mongo.stop();
  }
  return rows;
}
