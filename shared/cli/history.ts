// `berth events`: a page of the history as a table (`--all` pages through everything), `tail` to
// follow it live, `export` for NDJSON; every filter of events.all as a flag.
import { contract } from '../contract/index.ts';
import { request, call, serverSentEvents } from './client.ts';
import { inputFrom, parseArgs, UsageError } from './flags.ts';
import { table } from './output.ts';
import type { Settings } from './settings.ts';

interface Page { events: Array<Record<string, any>>; nextCursor: string | null }

const row = (event: Record<string, any>) => ({
  position: event.position, occurredAt: event.metadata.occurredAt, stream: event.stream, type: event.type,
  actor: event.metadata.actorId, correlation: event.metadata.correlationId,
});

export async function runEvents(settings: Settings, argv: readonly string[], out: (text: string) => void): Promise<void> {
  const [verb = 'list', ...rest] = argv[0]?.startsWith('--') ? ['list', ...argv] : argv;
  const { positional, flags } = parseArgs(rest, new Set(['json', 'all']));
  if (positional.length > 0) throw new UsageError(`unexpected ${positional.join(' ')}`);
  const json = flags.has('json');
  const ignore = new Set(['json', 'all']);
  if (verb === 'tail') {
    const response = await request(settings, contract.events.follow, inputFrom(contract.events.follow.input, flags, ignore), 'text/event-stream');
    for await (const { data } of serverSentEvents(response)) {
      const event = JSON.parse(data) as Record<string, any>;
      out(json ? data : Object.values(row(event)).join('  '));
    }
    return;
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
    if (!cursor || !flags.has('all')) break;
  }
  out(json ? JSON.stringify(events, null, 2) : table(events.map(row)));
}
