// The server side of the benchmark, run in its own process so the load generator does not share
// its event loop or its memory: `berth` (launch, roles api + projections), `berth-all` (every role
// in the one process, as `pnpm start` runs Berth: the relay and the reactors too), `ceiling` (a bare
// Fastify JSON POST route, the most this machine serves) or `log-ceiling` (the same route
// appending one event to the embedded log: the most durable writes this machine serves, whatever
// a command does besides). Speaks to the bench over IPC.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PerformanceObserver, constants, monitorEventLoopDelay, type PerformanceEntry } from 'node:perf_hooks';
import Fastify from 'fastify';
import type { RoleName } from '@berth/shared/runtime/config';

/** The request thread's garbage-collection pauses so far: minor (scavenges) and major (mark-compact). */
export interface GcPauses { minor: number; minorMs: number; major: number; majorMs: number; otherMs: number }

/** How late the request thread's event loop ran since the last report, ms: its p99 and its longest stall. */
export interface Stalls { p99Ms: number; maxMs: number }

export type ServerMessage =
  | { type: 'ready'; port: number; dataDir: string | null }
  | { type: 'rss'; rss: number; heapUsed: number; cpuMs: number; busyMs: number; gc: GcPauses; stalls: Stalls };

const send = (message: ServerMessage) => process.send!(message);

// Every request in flight waits out a pause, so pauses show in the latencies; they are counted here.
const gc: GcPauses = { minor: 0, minorMs: 0, major: 0, majorMs: 0, otherMs: 0 };
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    const kind = (entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind;
    if (kind === constants.NODE_PERFORMANCE_GC_MINOR) { gc.minor++; gc.minorMs += entry.duration; }
    else if (kind === constants.NODE_PERFORMANCE_GC_MAJOR) { gc.major++; gc.majorMs += entry.duration; }
    else gc.otherMs += entry.duration; // incremental marking steps, weak callbacks
  }
}).observe({ entryTypes: ['gc'] });
// A request that arrives during a stall waits it out: the longest stalls bound the latencies' tail from below.
const STALL_RESOLUTION_MS = 1;
const lateness = monitorEventLoopDelay({ resolution: STALL_RESOLUTION_MS });
lateness.enable();
const late = (nanos: number) => Math.max(0, nanos / 1e6 - STALL_RESOLUTION_MS);
const mode = process.argv[2];
const port = Number(process.argv[3]);

async function startBerth(roles: readonly RoleName[]) {
  // Imported here, so the ceiling's process holds none of Berth's code.
  const { configFrom } = await import('@berth/shared/runtime/config');
  const { launch } = await import('@berth/shared/runtime/launch');
  const dataDir = mkdtempSync(join(tmpdir(), 'berth-bench-'));
  // The operator's defaults (synchronous FULL unless BERTH_SQLITE_SYNCHRONOUS says otherwise).
  const config = configFrom(process.env, {
    dataDir, host: '127.0.0.1', port, roles, logLevel: process.env.BERTH_LOG_LEVEL ?? 'error',
  });
  const berth = await launch(config);
  return { dataDir, stop: async () => { await berth.stop(); rmSync(dataDir, { recursive: true, force: true }); } };
}

async function startCeiling() {
  const app = Fastify({ logger: false, bodyLimit: 1024 * 1024 });
  app.post('/echo', async (request) => ({ ok: true, received: request.body }));
  await app.listen({ host: '127.0.0.1', port });
  return { dataDir: null, stop: () => app.close() };
}

async function startLogCeiling() {
  const { configFrom } = await import('@berth/shared/runtime/config');
  const { openEventStore } = await import('@berth/shared/runtime/stores');
  const { envelope } = await import('@berth/shared/runtime/execute');
  const { newTimeOrderedId } = await import('@berth/shared/ids');
  const dataDir = mkdtempSync(join(tmpdir(), 'berth-bench-log-'));
  // The log as Berth opens it, with the operator's settings (synchronous FULL unless told otherwise).
  const log = await openEventStore(configFrom(process.env, { dataDir }));
  const app = Fastify({ logger: false, bodyLimit: 1024 * 1024 });
  app.post('/echo', async (request) => {
    const projectId = newTimeOrderedId();
    const { name, description } = request.body as { name: string; description: string | null };
    const event = envelope({ type: 'ProjectCreated', data: { projectId, name, description } },
      { actorId: null, correlationId: projectId, causationId: null, occurredAt: new Date().toISOString() });
    await log.append(`project-${projectId}`, [event], 'no_stream');
    return { projectId };
  });
  await app.listen({ host: '127.0.0.1', port });
  return { dataDir: null, stop: async () => { await app.close(); await log.close(); rmSync(dataDir, { recursive: true, force: true }); } };
}

const server = mode === 'berth' ? await startBerth(['api', 'projections'])
  : mode === 'berth-all' ? await startBerth(['api', 'projections', 'relay', 'reactors'])
    : mode === 'log-ceiling' ? await startLogCeiling() : await startCeiling();
process.on('message', async (message: { type: string }) => {
  if (message.type === 'rss') {
    const { rss, heapUsed } = process.memoryUsage();
    const { user, system } = process.cpuUsage();
    // How long the request thread has been busy, of all threads' CPU time above.
    const { active } = performance.eventLoopUtilization();
    const stalls = { p99Ms: late(lateness.percentile(99)), maxMs: late(lateness.max) };
    lateness.reset();
    send({ type: 'rss', rss, heapUsed, cpuMs: (user + system) / 1000, busyMs: active, gc: { ...gc }, stalls });
  }
  if (message.type === 'stop') {
    await server.stop();
    process.exit(0);
  }
});
send({ type: 'ready', port, dataDir: server.dataDir });
