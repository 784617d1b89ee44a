// `berth events`: a page of the history as a table (`--all` pages through everything, and a page
// with more after it says so on stderr), `tail` to follow it live, `export` for NDJSON; every filter
// of events.all as a flag. Any other word is an operation of the events group (`events stream`).
import { once } from 'node:events';
import { contract } from '../contract/index.ts';
import { END_OF_SELECTION } from '../contract/events.ts';
import { call, request, serverSentEvents } from './client.ts';
import { inputFrom, parseArgs, switchOn, UsageError } from './flags.ts';
import { groupUsage, HELP, runOperation } from './operations.ts';
import { cell, table } from './output.ts';
import { followReconnecting } from './reconnect.ts';
import type { Settings } from './settings.ts';

interface Page { events: Array<Record<string, any>>; nextCursor: string | null }

export const EVENTS_USAGE = 'berth events [list|tail|export] [--stream s] [--aggregate a] [--type t] [--actor-id id] [--from t] [--to t] [--after n] [--limit n] [--cursor c] [--all] [--json]';
const VERBS = new Set(['list', 'tail', 'export']);

const row = (event: Record<string, any>) => ({
  position: event.position, occurredAt: event.metadata.occurredAt, stream: event.stream, type: event.type,
  actor: event.metadata.actorId, correlation: event.metadata.correlationId,
});

export async function runEvents(settings: () => Settings, argv: readonly string[], out: (text: string) => void): Promise<void> {
  const [verb = 'list', ...rest] = argv[0]?.startsWith('-') || argv[0] === 'help' ? ['list', ...argv] : argv;
  if (!VERBS.has(verb)) return runOperation(settings, 'events', argv, out);
  if (rest.some((word) => HELP.has(word))) return out(`${EVENTS_USAGE}\n\n${groupUsage('events')}`);
  const { positional, flags } = parseArgs(rest);
  if (positional.length > 0) throw new UsageError(`unexpected ${positional.join(' ')}`);
  const json = switchOn(flags, 'json');
  const all = switchOn(flags, 'all');
  const ignore = new Set(['json', 'all']);
  if (verb === 'tail') {
    const print = (data: string, event: Record<string, any>) => out(json ? data : Object.values(row(event)).map(cell).join('  '));
    return tail(settings(), inputFrom(contract.events.follow.input, flags, ignore), print);
  }
  if (verb === 'export') {
    const response = await request(settings(), contract.events.export, inputFrom(contract.events.export.input, flags, ignore), 'application/x-ndjson');
    // Read from Berth only as fast as stdout takes it: a slow reader must not pile the export up here.
    for await (const chunk of response.body!) if (!process.stdout.write(chunk)) await once(process.stdout, 'drain');
    return;
  }
  const input = inputFrom(contract.events.all.input, flags, ignore);
  const events: Array<Record<string, any>> = [];
  let nextCursor: string | null = null;
  for (;;) {
    const page = (await call(settings(), contract.events.all, nextCursor ? { ...input, cursor: nextCursor, after: undefined } : input)) as Page;
    events.push(...page.events);
    nextCursor = page.nextCursor;
    if (!nextCursor || !all) break;
  }
  out(json ? JSON.stringify({ events, nextCursor }, null, 2) : table(events.map(row)));
  // On stderr, so that stdout stays the page for a pipe.
  if (nextCursor) console.error(`more events: add --cursor ${nextCursor} for the next page, or --all for every one`);
}

/**
 * Follows the history until stopped, across Berth's restarts, resuming after the last event it
 * printed, so that none is printed twice or left out.
 */
async function tail(settings: Settings, input: Record<string, unknown>, print: (data: string, event: Record<string, any>) => void): Promise<void> {
  // `after` rather than Last-Event-ID: the server reads both the same, and `request` sends no other header.
  // Once an event is printed, the cursor the tail began at is behind it, and Berth refuses the two together.
  let from = input;
  await followReconnecting({
    url: settings.url,
    open: () => request(settings, contract.events.follow, from, 'text/event-stream'),
    read: async (response) => {
      for await (const { event: type, data } of serverSentEvents(response)) {
        if (type === END_OF_SELECTION) return 'finished';
        const event = JSON.parse(data) as Record<string, any>;
        print(data, event);
        from = { ...input, cursor: undefined, after: event.position };
      }
      return 'ended';
    },
  });
}
