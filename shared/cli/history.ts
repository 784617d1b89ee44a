// `berth events`: a page of the history as a table (`--all` pages through everything), `tail` to
// follow it live, `export` for NDJSON; every filter of events.all as a flag.
import { contract } from '../contract/index.ts';
import { ApiError, connectionFailure, request, call, serverSentEvents } from './client.ts';
import { inputFrom, parseArgs, switchOn, UsageError } from './flags.ts';
import { table } from './output.ts';
import type { Settings } from './settings.ts';

interface Page { events: Array<Record<string, any>>; nextCursor: string | null }

/** How long `tail` waits before trying again, doubling from the first to the last. */
const FIRST_RETRY_MS = 250;
const LAST_RETRY_MS = 5000;
/** What a proxy in front of Berth answers while Berth is away: worth waiting out too. */
const AWAY_STATUSES = new Set([502, 503, 504]);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const row = (event: Record<string, any>) => ({
  position: event.position, occurredAt: event.metadata.occurredAt, stream: event.stream, type: event.type,
  actor: event.metadata.actorId, correlation: event.metadata.correlationId,
});

export async function runEvents(settings: Settings, argv: readonly string[], out: (text: string) => void): Promise<void> {
  const [verb = 'list', ...rest] = argv[0]?.startsWith('--') ? ['list', ...argv] : argv;
  const { positional, flags } = parseArgs(rest);
  if (positional.length > 0) throw new UsageError(`unexpected ${positional.join(' ')}`);
  const json = switchOn(flags, 'json');
  const all = switchOn(flags, 'all');
  const ignore = new Set(['json', 'all']);
  if (verb === 'tail') {
    const print = (data: string, event: Record<string, any>) => out(json ? data : Object.values(row(event)).join('  '));
    return tail(settings, inputFrom(contract.events.follow.input, flags, ignore), print);
  }
  if (verb === 'export') {
    const response = await request(settings, contract.events.export, inputFrom(contract.events.export.input, flags, ignore), 'application/x-ndjson');
    for await (const chunk of response.body!.pipeThrough(new TextDecoderStream())) process.stdout.write(chunk);
    return;
  }
  if (verb !== 'list') throw new UsageError('berth events [list|tail|export] [--stream s] [--aggregate a] [--type t] [--actor-id id] [--from t] [--to t] [--after n] [--limit n] [--all]');
  const input = inputFrom(contract.events.all.input, flags, ignore);
  const events: Array<Record<string, any>> = [];
  for (let cursor: string | null = null; ;) {
    const page = (await call(settings, contract.events.all, cursor ? { ...input, cursor, after: undefined } : input)) as Page;
    events.push(...page.events);
    cursor = page.nextCursor;
    if (!cursor || !all) break;
  }
  out(json ? JSON.stringify(events, null, 2) : table(events.map(row)));
}

/**
 * Follows the history until stopped. Whenever Berth goes away (killed, restarting, its stream
 * ended) it says so once and tries again with back-off, as an EventSource does, resuming after
 * the last event it printed, so that none is printed twice or left out. A refusal still ends it,
 * and so does a Berth never reached: a wrong URL is likelier then than an outage.
 */
async function tail(settings: Settings, input: Record<string, unknown>, print: (data: string, event: Record<string, any>) => void): Promise<never> {
  // `after` rather than Last-Event-ID: the server reads both the same, and `request` sends no other header.
  let after = input.after;
  let connected = false;
  let failures = 0;
  for (;;) {
    let why = `Berth at ${settings.url} ended the stream`;
    try {
      const response = await request(settings, contract.events.follow, { ...input, after }, 'text/event-stream');
      connected = true;
      failures = 0;
      for await (const { data } of serverSentEvents(response)) {
        const event = JSON.parse(data) as Record<string, any>;
        print(data, event);
        after = event.position;
      }
    } catch (error) {
      const failure = connectionFailure(error, settings.url);
      const away = error instanceof ApiError && AWAY_STATUSES.has(error.status);
      if (!connected || (!failure && !away)) throw error;
      why = failure ?? `Berth at ${settings.url} answered ${(error as ApiError).status}`;
    }
    // One line an outage, not one a try.
    if (failures === 0) console.error(`${why}; reconnecting…`);
    await sleep(Math.min(LAST_RETRY_MS, FIRST_RETRY_MS * 2 ** failures++));
  }
}
