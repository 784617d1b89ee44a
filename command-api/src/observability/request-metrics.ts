// The per-request metrics, kept as plain numbers and written out in the Prometheus text format at
// scrape time. prom-client hashes an observation's labels on every call, a measured 1.5 µs per
// request; here each route, method and status finds its series once, and an observation is a
// bucket search and a few additions.

const LATENCY = 'berth_request_duration_seconds';
const COMMANDS = 'berth_commands_total';
/** Upper bounds of the latency buckets, in seconds. */
const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5] as const;

const outcomeOf = (status: number) => (status < 400 ? 'ok' : status < 500 ? 'rejected' : 'failed');
const escaped = (value: string) => value.replace(/[\\"\n]/g, (c) => (c === '\n' ? '\\n' : `\\${c}`));
const labelled = (labels: Record<string, string>) =>
  Object.entries(labels).map(([name, value]) => `${name}="${escaped(value)}"`).join(',');

/** One latency series and, for a command, its counter. */
export class RequestSeries {
  /** Requests per bucket (not cumulative: rendering adds them up). */
  private readonly buckets = new Array<number>(BUCKETS.length).fill(0);
  private sum = 0;
  private count = 0;
  private readonly latencyLabels: string;
  private readonly commandLabels: string | null;

  constructor(readonly operation: string, status: number, command: boolean) {
    this.latencyLabels = labelled({ operation, status: String(status) });
    this.commandLabels = command ? labelled({ operation, outcome: outcomeOf(status) }) : null;
  }

  observe(seconds: number): void {
    let bucket = 0;
    while (bucket < BUCKETS.length && seconds > BUCKETS[bucket]!) bucket++;
    // Slower than the last bound: counted only in +Inf, which is `count`.
    if (bucket < BUCKETS.length) this.buckets[bucket]! += 1;
    this.sum += seconds;
    this.count += 1;
  }

  latencyLines(): string[] {
    let cumulative = 0;
    const lines = BUCKETS.map((bound, i) => {
      cumulative += this.buckets[i]!;
      return `${LATENCY}_bucket{le="${bound}",${this.latencyLabels}} ${cumulative}`;
    });
    lines.push(`${LATENCY}_bucket{le="+Inf",${this.latencyLabels}} ${this.count}`,
      `${LATENCY}_sum{${this.latencyLabels}} ${this.sum}`, `${LATENCY}_count{${this.latencyLabels}} ${this.count}`);
    return lines;
  }

  /** This series' part of its command counter (several statuses share an outcome), or null for a query. */
  commands(): [labels: string, count: number] | null {
    return this.commandLabels === null ? null : [this.commandLabels, this.count];
  }
}

export class RequestMetrics {
  private readonly series = new Map<string, RequestSeries>();

  /** The series of a request answered at `route` (as routed) with `method` and `status`. */
  of(route: string, method: string, status: number): RequestSeries {
    const key = `${method} ${status} ${route}`;
    let found = this.series.get(key);
    if (!found) {
      // Operations are routed at `/api/<name>`; anything else (health, unknown paths) by its route.
      const api = route.startsWith('/api/');
      const operation = api ? route.slice(5) : route.replace(/^\//, '');
      found = new RequestSeries(operation, status, api && method === 'POST');
      this.series.set(key, found);
    }
    return found;
  }

  /** Both families in the Prometheus text format, each line ending in a newline. */
  render(): string {
    const all = [...this.series.values()];
    const commands = new Map<string, number>();
    for (const [labels, count] of all.map((series) => series.commands()).filter((part) => part !== null)) {
      commands.set(labels, (commands.get(labels) ?? 0) + count);
    }
    return [
      `# HELP ${LATENCY} Time from request to answer, per operation`, `# TYPE ${LATENCY} histogram`,
      ...all.flatMap((series) => series.latencyLines()),
      `# HELP ${COMMANDS} Commands (POST operations) by outcome: ok, rejected (4xx) or failed (5xx)`, `# TYPE ${COMMANDS} counter`,
      ...[...commands].map(([labels, count]) => `${COMMANDS}{${labels}} ${count}`),
    ].map((line) => `${line}\n`).join('');
  }
}
