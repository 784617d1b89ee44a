// The auditors' history over a real listening Berth: every call of a populated world is in the
// log with its actor and correlation id, each filter answers exactly its events, pages, exports
// and live follows agree, secrets stay sealed, and each record is the fold of its own stream.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Context } from '@berth/command-api/context';
import { aggregates } from '@berth/shared/domain/index';
import { fold } from '@berth/shared/domain/aggregate';
import { upcast } from '@berth/shared/events/catalogue';
import type { RecordedEvent } from '@berth/shared/events/event';
import { buildWorld, type Read } from '../e2e/world.ts';
import { listeningBerth, signInFirstAdmin, type HttpClient, type ListeningBerth } from '../support/http.ts';
import { ALL_FLAGS, invitedUser } from '../support/users.ts';
import { startBerth } from '../support/berth.ts';

const ADMIN = { email: 'auditor@berth.test', password: 'a long enough password' };
const CLEAR_SECRETS = ['secret', 'registry-pw', 'pw-0', 'pw-1', 'a subscription secret', ADMIN.password];

describe('events: the history for auditors', () => {
  let server: ListeningBerth;
  let api: HttpClient;
  let reads: Read[];
  let log: RecordedEvent[];
  let adminId: string;

  /** Every page of `query`, following the cursors. */
  async function everyPage(query: Record<string, unknown>, limit: number): Promise<RecordedEvent[]> {
    const found: RecordedEvent[] = [];
    let cursor: string | null = null;
    do {
      const page: { events: RecordedEvent[]; nextCursor: string | null } =
        await api.ok('events.all', { ...query, limit, ...(cursor ? { cursor } : {}) });
      assert.ok(page.events.length <= limit);
      found.push(...page.events);
      cursor = page.nextCursor;
    } while (cursor);
    return found;
  }

  before(async () => {
    server = await listeningBerth();
    api = await signInFirstAdmin(server, ADMIN);
    adminId = (await api.ok('auth.get')).id;
    reads = await buildWorld((operation, input) => api.ok(operation, input), { projects: 2 });
    const { subscriptionId } = await api.ok('notification.create', { url: 'http://127.0.0.1:9/hook', eventTypes: ['CertificateFolderLeft'], secret: 'a subscription secret' });
    reads.push(['notification.one', { subscriptionId }]);
    log = (await server.berth.infrastructure.eventStore.readAll(0, 100_000)) as RecordedEvent[];
  });
  after(() => server.stop());

  it('shows every event the world appended, each with the admin as actor and a correlation id', async () => {
    const shown = await everyPage({}, 1000);
    assert.deepEqual(shown.map((event) => event.id), log.map((event) => event.id));
    const byAdmin = shown.filter((event) => event.metadata.actorId === adminId);
    // Everything after the admin's first sign-in was done by the admin.
    const firstSignIn = shown.findIndex((event) => event.metadata.actorId === adminId);
    assert.ok(firstSignIn >= 0 && byAdmin.length > 20);
    for (const event of shown.slice(firstSignIn)) {
      assert.ok(event.metadata.actorId === adminId || event.type.startsWith('Session'), `${event.type} has actor ${event.metadata.actorId}`);
    }
    for (const event of shown) assert.match(event.metadata.correlationId, /^[\w.:-]+$/);
  });

  it('carries the correlation id a client sent into the events of that request', async () => {
    const response = await fetch(`${api.baseUrl}/api/project.create`, {
      method: 'POST',
      headers: { authorization: `Bearer ${api.token}`, 'content-type': 'application/json', 'x-correlation-id': 'audit-run-42' },
      body: JSON.stringify({ name: 'traced' }),
    });
    assert.equal(response.status, 200);
    const { projectId } = await response.json() as { projectId: string };
    const events = await everyPage({ stream: `project-${projectId}` }, 10);
    assert.equal(events.length, 1);
    assert.equal(events[0]!.metadata.correlationId, 'audit-run-42');
    assert.equal(events[0]!.metadata.actorId, adminId);
  });

  it('answers exactly the matching events for each filter, over pages of any size', async () => {
    log = (await server.berth.infrastructure.eventStore.readAll(0, 100_000)) as RecordedEvent[];
    const application = log.find((event) => event.type === 'ApplicationCreated')!;
    const middle = log[Math.floor(log.length / 2)]!;
    const last = log[log.length - 1]!;
    const cases: Array<[Record<string, unknown>, (event: RecordedEvent) => boolean]> = [
      [{ stream: application.stream }, (event) => event.stream === application.stream],
      [{ aggregate: 'dbgamma' }, (event) => event.stream.startsWith('dbgamma-')],
      [{ type: 'PortCreated' }, (event) => event.type === 'PortCreated'],
      [{ actorId: adminId }, (event) => event.metadata.actorId === adminId],
      [{ from: middle.metadata.occurredAt, to: last.metadata.occurredAt },
        (event) => event.metadata.occurredAt >= middle.metadata.occurredAt && event.metadata.occurredAt < last.metadata.occurredAt],
      [{ after: String(middle.position), aggregate: 'application', type: 'ApplicationUpdated' },
        (event) => event.position > middle.position && event.stream.startsWith('application-') && event.type === 'ApplicationUpdated'],
    ];
    for (const [query, matches] of cases) {
      const expected = log.filter(matches).map((event) => event.position);
      assert.ok(expected.length > 0, `the world has events for ${JSON.stringify(query)}`);
      assert.deepEqual((await everyPage(query, 3)).map((event) => event.position), expected, JSON.stringify(query));
      assert.deepEqual((await everyPage(query, 1000)).map((event) => event.position), expected, JSON.stringify(query));
    }
  });

  it('shows one aggregate history with its revisions, and 404 for a stream that does not exist', async () => {
    const application = log.find((event) => event.type === 'ApplicationCreated')!;
    const history = await api.ok('events.stream', { stream: application.stream });
    assert.deepEqual(history.events.map((event: RecordedEvent) => event.revision), history.events.map((_: unknown, i: number) => i));
    assert.equal(history.revision, history.events.length - 1);
    assert.equal((await api.call('events.stream', { stream: 'application-nope' })).status, 404);
  });

  it('refuses bad filters, foreign cursors and oversized pages with 400 naming the field', async () => {
    const first = await api.ok('events.all', { type: 'ProjectCreated', limit: '1' });
    const refusals: Array<[Record<string, unknown>, string]> = [
      [{ colour: 'red' }, 'colour'],
      [{ limit: '1001' }, 'limit'],
      [{ limit: '0' }, 'limit'],
      [{ limit: 'ten' }, 'limit'],
      [{ after: '-1' }, 'after'],
      [{ from: '2026-01-02T00:00:00Z', to: '2026-01-01T00:00:00Z' }, 'to'],
      [{ from: 'yesterday' }, 'from'],
      // A day the month lacks (not rolled over to March), an instant past the year 9999 in UTC, no offset.
      [{ from: '2024-02-30T00:00:00Z' }, 'from'],
      [{ to: '9999-12-31T23:59:59-12:00' }, 'to'],
      [{ from: '2026-01-01T00:00:00' }, 'from'],
      [{ cursor: first.nextCursor, type: 'ApplicationCreated' }, 'cursor'],
      [{ cursor: 'not-a-cursor' }, 'cursor'],
      [{ cursor: first.nextCursor, type: 'ProjectCreated', after: '3' }, 'cursor'],
    ];
    for (const [query, field] of refusals) {
      const answer = await api.call('events.all', query);
      assert.equal(answer.status, 400, JSON.stringify(query));
      assert.equal(answer.body.code, 'BAD_REQUEST');
      assert.deepEqual(answer.body.issues.map((issue: { path: string }) => issue.path), [field], JSON.stringify(answer.body));
    }
  });

  it('continues a page whose filters, after among them, come back with its cursor, and refuses the cursor with another after', async () => {
    const query = { after: String(log[Math.floor(log.length / 2)]!.position) };
    const positions = (events: RecordedEvent[]) => events.map((event) => event.position);
    const expected = positions((await api.ok('events.all', { ...query, limit: '1000' })).events);
    assert.ok(expected.length > 6, 'the log holds more than two pages of 3 after its middle');
    const first = await api.ok('events.all', { ...query, limit: '3' });
    const repeated = await api.call('events.all', { ...query, limit: '3', cursor: first.nextCursor });
    assert.equal(repeated.status, 200, JSON.stringify(repeated.body));
    assert.deepEqual(positions([...first.events, ...repeated.body.events]), expected.slice(0, 6));
    // Leaving `after` out continues the same way.
    assert.deepEqual(await api.ok('events.all', { limit: '3', cursor: first.nextCursor }), repeated.body);
    const moved = await api.call('events.all', { ...query, after: String(Number(query.after) + 1), limit: '3', cursor: first.nextCursor });
    assert.equal(moved.status, 400);
    assert.equal(moved.body.code, 'BAD_REQUEST');
    assert.deepEqual(moved.body.issues.map((issue: { path: string }) => issue.path), ['cursor']);
    assert.match(JSON.stringify(moved.body), new RegExp(`came with after ${query.after}`));
  });

  it('exports any selection as NDJSON that round-trips to the paged events', async () => {
    for (const query of [{}, { aggregate: 'project' }, { type: 'SecurityCreated' }] as Array<Record<string, string>>) {
      const response = await fetch(`${api.baseUrl}/api/events.export?${new URLSearchParams(query)}`, { headers: { authorization: `Bearer ${api.token}` } });
      assert.equal(response.status, 200);
      assert.match(response.headers.get('content-type') ?? '', /application\/x-ndjson/);
      const lines = (await response.text()).split('\n').filter(Boolean).map((line) => JSON.parse(line));
      assert.deepEqual(lines, await everyPage(query, 1000));
    }
  });

  it('keeps every secret sealed in what it shows', async () => {
    const exported = await (await fetch(`${api.baseUrl}/api/events.export`, { headers: { authorization: `Bearer ${api.token}` } })).text();
    assert.ok(exported.includes('registry.example.test'), 'the export holds the records');
    // As a value anywhere in a JSON line (a field may be named `secret`).
    for (const secret of CLEAR_SECRETS) assert.ok(!exported.includes(`:"${secret}"`), `${secret} appears in clear`);
    assert.ok(!exported.includes(api.token!), 'a token appears in clear');
  });

  it('shows no password, invitation or token hash, in pages, streams, exports or follows', async () => {
    const HASHES = ['passwordHash', 'invitationTokenHash', 'secretHash', 'twoFactorSecret'];
    const keysOf = (value: unknown): string[] => value && typeof value === 'object'
      ? Object.entries(value).flatMap(([key, item]) => [key, ...keysOf(item)])
      : [];
    const accountStream = `account-${adminId}`;
    await api.ok('auth.generateToken', {});
    const recorded = await server.berth.infrastructure.eventStore.readAll(0, 100_000);
    assert.ok(keysOf(recorded).includes('passwordHash') && keysOf(recorded).includes('secretHash'), 'the log holds the hashes');
    const exported = await (await fetch(`${api.baseUrl}/api/events.export`, { headers: { authorization: `Bearer ${api.token}` } })).text();
    const shown = {
      pages: await everyPage({}, 1000),
      stream: (await api.ok('events.stream', { stream: accountStream })).events,
      export: exported.split('\n').filter(Boolean).map((line) => JSON.parse(line)),
      follow: (await api.ok('events.follow', { aggregate: 'account' })).events,
    };
    for (const [where, events] of Object.entries(shown)) {
      assert.ok(events.length > 0, `${where} shows events`);
      assert.deepEqual(keysOf(events).filter((key) => HASHES.includes(key)), [], `${where} shows a hash`);
    }
    // Less the hashes, each event is as recorded.
    const adminCreated = recorded.find((event) => event.stream === accountStream)!;
    const { passwordHash: _hash, ...rest } = adminCreated.data as Record<string, unknown>;
    assert.deepEqual(shown.stream[0].data, rest);
  });

  it('gives, for every aggregate type, the record the API shows when its stream is replayed through evolve', async () => {
    const ctx = new Context(server.berth.infrastructure, null, 'replay');
    const covered = new Set<string>();
    for (const [operation, input] of reads.filter(([name]) => name.endsWith('.one') || name === 'auth.get')) {
      const answer = await api.ok(operation, input);
      // An account's answer names the account in its permissions too.
      if (operation === 'auth.get') delete answer.permissions.userId;
      const [idField, id] = operation === 'auth.get' ? ['id', answer.id] : Object.entries(input)[0]!;
      const aggregate = aggregates.find((candidate) => candidate.idField === idField && (idField !== 'id' || candidate.name === 'account'))!;
      const { events } = await api.ok('events.stream', { stream: `${aggregate.name}-${String(id)}` });
      const replayed = ctx.view(aggregate, fold(aggregate, (events as RecordedEvent[]).map(upcast)))!;
      for (const [field, value] of Object.entries(answer)) {
        // What the answer adds beyond the record is its children, read from their own streams.
        if (!(field in replayed)) assert.ok(typeof value === 'object' && value !== null, `${operation} shows ${field} that the fold lacks`);
        else assert.deepEqual(replayed[field], value, `${operation}.${field}`);
      }
      covered.add(aggregate.name);
    }
    // Reservations, usages, certificate folders and sessions have no read of their own; deliveries are checked with the notifications;
    // backup runs have no `.one`: they are read as the list `backup.runs`; the forge app only as `admin.haveForgeConfigured`.
    const expected = aggregates.map((aggregate) => aggregate.name).filter((name) => !['reservation', 'usage', 'certfolder', 'session', 'delivery', 'backuprun', 'forge'].includes(name));
    assert.deepEqual([...covered].sort(), expected.sort());
  });

  it('takes back the cursor of its own long-poll page, continuing after it', async () => {
    // More projects than a page holds.
    for (let n = 0; n < 101; n++) await api.ok('project.create', { name: `paged ${n}` });
    const first = await api.ok('events.follow', { aggregate: 'project' });
    assert.ok(first.nextCursor, 'the log holds more than a page');
    const next = await api.call('events.follow', { aggregate: 'project', cursor: first.nextCursor });
    assert.equal(next.status, 200, JSON.stringify(next.body));
    assert.equal(next.body.events[0].position, first.events.at(-1).position + 1);
  });

  it('gives a long poll that found fewer events than a page the cursor after them, to poll on from', async () => {
    const before = String(await server.berth.infrastructure.eventStore.head());
    for (let n = 0; n < 3; n++) await api.ok('project.create', { name: `polled ${n}` });
    const first = await api.ok('events.follow', { aggregate: 'project', after: before });
    assert.equal(first.events.length, 3);
    assert.ok(first.nextCursor, 'a long poll answers where to poll again from');
    const { projectId } = await api.ok('project.create', { name: 'polled next' });
    const next = await api.ok('events.follow', { aggregate: 'project', cursor: first.nextCursor });
    assert.deepEqual(next.events.map((event: RecordedEvent) => event.stream), [`project-${projectId}`]);
    assert.ok(next.nextCursor);
  });

  it('follows the log live as server-sent events, and long-polls for clients that take JSON', async () => {
    const head = String(await server.berth.infrastructure.eventStore.head());
    const stop = new AbortController();
    const response = await fetch(`${api.baseUrl}/api/events.follow?aggregate=project&after=${head}`, {
      headers: { authorization: `Bearer ${api.token}`, accept: 'text/event-stream' }, signal: stop.signal,
    });
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /text\/event-stream/);
    const polled = api.call('events.follow', { aggregate: 'project', after: head });
    const { projectId } = await api.ok('project.create', { name: 'followed' });
    await api.ok('application.create', { name: 'not a project event', projectId });
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    // Comments (`: …`) keep the stream open; the first frame with an id is the first event.
    while (!/(^|\n\n)id: [^]*?\n\n/.test(text)) text += (await reader.read()).value ?? '';
    stop.abort();
    const frame = text.split('\n\n').find((part) => part.startsWith('id: '))!;
    assert.match(frame, /^id: \d+\nevent: ProjectCreated\ndata: /);
    assert.equal(JSON.parse(frame.split('data: ')[1]!).stream, `project-${projectId}`);
    const poll = await polled;
    assert.equal(poll.status, 200);
    assert.deepEqual(poll.body.events.map((event: RecordedEvent) => event.stream), [`project-${projectId}`]);
  });
});

describe('events: admin only', () => {
  it('refuses every events operation to a user with every permission with 403', async () => {
    const berth = await startBerth();
    try {
      const user = await invitedUser(berth, ALL_FLAGS);
      for (const [operation, input] of [['events.all', {}], ['events.stream', { stream: `account-${user.id}` }], ['events.follow', {}], ['events.export', {}]] as const) {
        const answer = await berth.call(operation, input, { token: user.token });
        assert.equal(answer.status, 403, operation);
        assert.equal(answer.body.code, 'FORBIDDEN');
      }
    } finally {
      await berth.stop();
    }
  });
});
