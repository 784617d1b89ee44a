// The per-request metrics, kept as plain numbers and written out in the Prometheus text format at
// scrape time. prom-client hashes an observation's labels on every call, a measured 1.5 µs per
// request; here each route, method and status finds its series once, and an observation is a
// bucket search and a few additions.
import { operations } from '@berth/shared/contract/index';
import type { Method } from '@berth/shared/contract/operation';
import { PUSH_ROUTES } from '../webhook.ts';

const LATENCY = 'berth_request_duration_seconds';
const COMMANDS = 'berth_commands_total';
/** Upper bounds of the latency buckets, in seconds. */
const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5] as const;

/** Each operation's method, by name: the contract, not the path it was called by, says what is a command. */
const METHOD_OF: ReadonlyMap<string, Method> = new Map(operations.map((operation) => [operation.name, operation.method]));

const PUSHES: ReadonlySet<string> = new Set(Object.values(PUSH_ROUTES));

const outcomeOf = (status: number) => (status < 400 ? 'ok' : status < 500 ? 'rejected' : 'failed');
const escaped = (value: string) => value.replace(/[\\"\n]/g, (c) => (c === '\n' ? '\\n' : `\\${c}`));
const labelled = (labels: Record<string, string>) =>
  Object.entries(labels).map(([name, value]) => `${name}="${escaped(value)}"`).join(',');

/** One latency histogram: an operation and a status. */
class Latency {
  /** Requests per bucket (not cumulative: rendering adds them up). */
  private readonly buckets = new Array<number>(BUCKETS.length).fill(0);
  private sum = 0;
  private count = 0;

  constructor(private readonly labels: string) {}

  observe(seconds: number): void {
    let bucket = 0;
    while (bucket < BUCKETS.length && seconds > BUCKETS[bucket]!) bucket++;
    // Slower than the last bound: counted only in +Inf, which is `count`.
    if (bucket < BUCKETS.length) this.buckets[bucket]! += 1;
    this.sum += seconds;
    this.count += 1;
  }

  lines(): string[] {
    let cumulative = 0;
    const lines = BUCKETS.map((bound, i) => {
      cumulative += this.buckets[i]!;
      return `${LATENCY}_bucket{le="${bound}",${this.labels}} ${cumulative}`;
    });
    lines.push(`${LATENCY}_bucket{le="+Inf",${this.labels}} ${this.count}`,
      `${LATENCY}_sum{${this.labels}} ${this.sum}`, `${LATENCY}_count{${this.labels}} ${this.count}`);
    return lines;
  }
}

/** One command counter: an operation and an outcome (several statuses share it). */
class Commands {
  count = 0;
  constructor(readonly labels: string) {}
}

/**
 * Where a request of one route, method and status is counted. Several routes (an admin operation
 * answers at two paths) share a series: the series are the operation's, not the path's.
 */
export class RequestSeries {
  constructor(readonly operation: string, private readonly latency: Latency, private readonly command: Commands | null) {}

  observe(seconds: number): void {
    this.latency.observe(seconds);
    if (this.command) this.command.count += 1;
  }
}

export class RequestMetrics {
  /** By method, status and route: found once per kind of request. */
  private readonly routes = new Map<string, RequestSeries>();
  /** By their labels, so each series is written once. */
  private readonly latencies = new Map<string, Latency>();
  private readonly commands = new Map<string, Commands>();

  /** The series of a request answered at `route` (as routed) with `method` and `status`. */
  of(route: string, method: string, status: number): RequestSeries {
    const key = `${method} ${status} ${route}`;
    let found = this.routes.get(key);
    if (!found) {
      // Operations answer at `/api/<name>` (admin ones at `/<name>` too); anything else (health,
      // unknown paths) is named by its route.
      const operation = route.replace(/^\/(?:api\/)?/, '');
      // A command is what the contract makes a POST, called with POST: the same path called with
      // another method is answered 405 before it could be one.
      // A push to deploy is one too, though no row of the contract.
      const command = method === 'POST' && (METHOD_OF.get(operation) === 'POST' || PUSHES.has(route));
      const latencyLabels = labelled({ operation, status: String(status) });
      let latency = this.latencies.get(latencyLabels);
      if (!latency) this.latencies.set(latencyLabels, latency = new Latency(latencyLabels));
      let commands: Commands | null = null;
      if (command) {
        const commandLabels = labelled({ operation, outcome: outcomeOf(status) });
        commands = this.commands.get(commandLabels) ?? null;
        if (!commands) this.commands.set(commandLabels, commands = new Commands(commandLabels));
      }
      found = new RequestSeries(operation, latency, commands);
      this.routes.set(key, found);
    }
    return found;
  }

  /** Both families in the Prometheus text format, each line ending in a newline. */
  render(): string {
    return [
      `# HELP ${LATENCY} Time from request to answer, per operation`, `# TYPE ${LATENCY} histogram`,
      ...[...this.latencies.values()].flatMap((latency) => latency.lines()),
      `# HELP ${COMMANDS} Commands (POST operations) by outcome: ok, rejected (4xx) or failed (5xx)`, `# TYPE ${COMMANDS} counter`,
      ...[...this.commands.values()].map(({ labels, count }) => `${COMMANDS}{${labels}} ${count}`),
    ].map((line) => `${line}\n`).join('');
  }
}
