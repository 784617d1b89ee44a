// `pnpm bench:ab <other checkout>`: is a change faster? This checkout's Berth and another's (a
// worktree of main, say) take the commands load in alternating bursts, the first of each cycle
// swapping sides, so that the host's other tenants, which move a single load by ±15 %, weigh on both
// alike. Prints both sides' medians and, per cycle, the other's CPU per command over this one's.
// The other checkout needs its dependencies installed (pnpm install there).
// `pnpm bench:ab .` with BENCH_B_NODE_FLAGS compares node flags instead: the other side runs with them.
// Knobs: BENCH_BURST (seconds per burst, default 3), BENCH_CYCLES (default 10, after one to warm up).
import { resolve } from 'node:path';
import { alternate, median, medianOf, startServer } from './kit.ts';

const other = process.argv[2];
if (!other) {
  console.error('usage: pnpm bench:ab <path of the other checkout>');
  process.exit(2);
}
const BURST = Number(process.env.BENCH_BURST ?? 3);
const CYCLES = Number(process.env.BENCH_CYCLES ?? 10);

const flags = process.env.BENCH_B_NODE_FLAGS;
const names = ['this checkout', `${resolve(other)}${flags ? ` with ${flags}` : ''}`];
const servers = await Promise.all([
  startServer('berth'),
  startServer('berth', { checkout: resolve(other), env: flags ? { BERTH_NODE_FLAGS: flags } : {} }),
]);
const bursts = await alternate(servers, CYCLES, BURST);
const memory = await Promise.all(servers.map((server) => server.memory()));
await Promise.all(servers.map((server) => server.stop()));

const fixed = (value: number, digits = 0) => value.toFixed(digits);
for (const [side, name] of names.entries()) {
  const runs = bursts[side]!;
  const middle = medianOf(runs);
  console.log(`${name}: CPU µs per command ${fixed(middle.cpuMicros)} [${runs.map((run) => fixed(run.cpuMicros)).join(' ')}], `
    + `commands/s ${fixed(middle.requests.average)}, p99 ms ${middle.latency.p99} [${runs.map((run) => run.latency.p99).join(' ')}], `
    + `RSS ${fixed(memory[side]!.rss / 2 ** 20, 1)} MB`);
}
const ratios = bursts[1]!.map((run, cycle) => run.cpuMicros / bursts[0]![cycle]!.cpuMicros);
console.log(`other / this, CPU per command: median ${fixed(median(ratios), 3)} [${ratios.map((ratio) => fixed(ratio, 2)).join(' ')}] (below 1: the other checkout is cheaper)`);
