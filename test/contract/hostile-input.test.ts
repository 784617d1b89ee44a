// Every operation, fed what a careless or hostile client sends (a wrong type in any field, a body
// that is not an object or not JSON, prototype keys, deep nesting, a query field given twice,
// strings no form would produce, each of them in every field), answers 200 or a 4xx in the spec's
// error shape, never a 5xx (a 503 only for an admitted payload while a peer is down); a
// payload its schema does not admit is refused and appends nothing. (One that it admits may act,
// or be refused after a decision: a failed sign-up or sign-in is recorded, as lockouts count them.)
// The wrong types are drawn from a fixed seed, so a failure replays.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Value } from '@sinclair/typebox/value';
import { operations } from '@berth/shared/contract/index';
import type { Operation } from '@berth/shared/contract/operation';
import type { TestBerth } from '../support/berth.ts';
import { startBerthWithFixtures, type Fixtures } from './fixtures.ts';
import { validInput } from './valid-input.ts';
import { fieldsOf } from './schema-walk.ts';

const SEED = Number(process.env.HOSTILE_SEED ?? 20261125);
/** Payloads of a wrong type per operation, besides the fixed ones. */
const DRAWN = 10;

/** Values of every JSON type and none a field expects by accident. */
const WRONG_TYPES: readonly unknown[] = [
  null, true, 0, -1, 1.5, 1e308, -(2 ** 53) - 1, [], [null], {}, { $gt: '' }, { nested: { deeper: [1, { x: null }] } },
];
/** Strings that fit a string field's type and still mean trouble somewhere down the line. */
const AWKWARD_STRINGS: readonly string[] = [
  '', ' ', '\u0000', 'x'.repeat(70_000), '../../../../etc/passwd', '$(touch /tmp/berth-hostile)', "'; DROP TABLE events; --",
  '💥\u202e\ud800', '%00%2e%2e', '{"__proto__":{"admin":true}}', 'constructor', '-1', 'NaN', '\r\nX-Injected: 1',
];

/** Operations on the suite's own account and session: an admitted call could sign the suite out, so they get only refused ones. */
const OWN_ACCOUNT = new Set(['auth.logout', 'auth.update', 'auth.updateByAdmin', 'auth.disable2FA', 'auth.generate2FASecret', 'auth.verify2FASetup']);

/**
 * Admitted calls that may rightly wait long, so only refused ones are sent: events.follow long-polls
 * 20 s for a first event, and a followed deployment log streams until the deployment ends (no
 * reactors run here, so a queued one never does).
 */
const waits = (operation: Operation, input: Record<string, unknown> | undefined) =>
  operation.name === 'events.follow' || (operation.name === 'deployment.logs' && stringsOf(input ?? {}).follow === 'true');

/** A small seeded generator (mulberry32): the same seed draws the same payloads. */
function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { pick: <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]! };
}

interface Hostile {
  readonly what: string;
  /** A JSON body or query as an object, or a raw body with its content type. */
  readonly input?: Record<string, unknown>;
  readonly raw?: { readonly body: string; readonly contentType: string };
  readonly query?: string;
}

const shown = (value: unknown) => (typeof value === 'string' && value.length > 40 ? `a ${value.length}-character string` : JSON.stringify(value));

const nested = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

function hostileCalls(operation: Operation, valid: Record<string, unknown>, seed: number): Hostile[] {
  const draw = random(seed);
  const fields = fieldsOf(operation.input).map((field) => field.name);
  const calls: Hostile[] = [{ what: 'an empty object', input: {} }];
  if (operation.method === 'POST') {
    calls.push(
      { what: 'a JSON array', raw: { body: '[1,2]', contentType: 'application/json' } },
      { what: 'JSON null', raw: { body: 'null', contentType: 'application/json' } },
      { what: 'a JSON string', raw: { body: '"text"', contentType: 'application/json' } },
      { what: 'broken JSON', raw: { body: '{"name": ', contentType: 'application/json' } },
      { what: 'an empty JSON body', raw: { body: '', contentType: 'application/json' } },
      { what: 'a form body', raw: { body: 'name=x', contentType: 'application/x-www-form-urlencoded' } },
      { what: 'nesting 5,000 deep', raw: { body: nested(5000), contentType: 'application/json' } },
      { what: 'a __proto__ key', raw: { body: JSON.stringify(valid).replace(/^\{/, '{"__proto__":{"rol":"admin"},'), contentType: 'application/json' } },
      { what: 'a constructor key', input: { ...valid, constructor: { prototype: { rol: 'admin' } } } },
    );
  } else {
    const [first] = fields;
    if (first) calls.push({ what: `${first} given twice`, query: `${first}=a&${first}=b` });
    calls.push({ what: 'an undecodable query', query: `${first ?? 'x'}=%E0%A4%A` });
  }
  // Every awkward string in every field: where a string goes (a path, a command, a query) decides
  // which one hurts, so none is left to chance.
  for (const field of fields) {
    for (const value of AWKWARD_STRINGS) calls.push({ what: `${field} = ${shown(value)}`, input: { ...valid, [field]: value } });
  }
  for (let i = 0; i < DRAWN && fields.length > 0; i++) {
    const field = draw.pick(fields);
    const value = draw.pick(WRONG_TYPES);
    calls.push({ what: `${field} = ${shown(value)}`, input: { ...valid, [field]: value } });
  }
  return calls;
}

/** Whether the operation's schema admits the call's payload: if not, nothing may come of it. */
function admitted(operation: Operation, call: Hostile): boolean {
  if (operation.method === 'GET') {
    // A query is text, read into the schema's types as the server reads it; a raw query may mean anything.
    return call.input === undefined || Value.Check(operation.input, Value.Convert(operation.input, stringsOf(call.input)));
  }
  // No body, or JSON null, is no input: admitted where nothing is required.
  if (call.raw?.contentType === 'application/json' && (call.raw.body === '' || call.raw.body === 'null')) return Value.Check(operation.input, {});
  return call.input !== undefined && Value.Check(operation.input, call.input);
}

const ERROR_STATUSES = new Set([400, 401, 403, 404, 405, 409, 413, 415, 429]);

describe('hostile input: every operation answers 200 or a 4xx in the error shape, never a 5xx', () => {
  let berth: TestBerth;
  let fixtures: Fixtures;
  // Wrong passwords are admitted payloads, and the lockout (tested on its own) would shut the suite out.
  before(async () => ({ berth, fixtures } = await startBerthWithFixtures({ attemptsPerAccount: 10_000, attemptsPerAddress: 10_000 })));
  after(() => berth.stop());

  operations.forEach((operation, index) => {
    it(`${operation.name} answers hostile payloads with 200 or a 4xx in the error shape, and refuses the ones it does not admit`, async () => {
      await berth.relogin();
      const valid = await validInput(operation, fixtures);
      const wrong: string[] = [];
      for (const call of hostileCalls(operation, valid, SEED + index)) {
        const mayAct = admitted(operation, call);
        if (mayAct && (OWN_ACCOUNT.has(operation.name) || waits(operation, call.input))) continue;
        const head = await berth.head();
        const answer = await send(berth, operation, call);
        const what = `${call.what}: ${answer.status} ${answer.text.slice(0, 300)}`;
        if (answer.status === 200) {
          if (!mayAct) wrong.push(`accepted a payload its schema does not admit: ${what}`);
          continue;
        }
        // A peer that is down (the container engine, when no dockerd runs) is an outage whatever the
        // payload, once the payload is admitted: a refused one must be refused before anything is asked.
        const outage = answer.status === 503 && mayAct && parse(answer.text)?.code === 'UNAVAILABLE';
        if (!ERROR_STATUSES.has(answer.status) && !outage) wrong.push(what);
        else if (!inErrorShape(parse(answer.text))) wrong.push(`not in the error shape: ${what}`);
        if (!mayAct && await berth.head() !== head) wrong.push(`a refused payload appended events: ${what}`);
      }
      assert.deepEqual(wrong, [], `seed ${SEED + index}`);
    });
  });
});

async function send(berth: TestBerth, operation: Operation, call: Hostile): Promise<{ status: number; text: string }> {
  const headers: Record<string, string> = { authorization: `Bearer ${berth.token}` };
  const url = `/api/${operation.name}`;
  const response = operation.method === 'GET'
    ? await berth.app.inject({ method: 'GET', url: call.query === undefined ? url : `${url}?${call.query}`, query: call.query === undefined ? stringsOf(call.input ?? {}) : undefined, headers })
    : call.raw
      ? await berth.app.inject({ method: 'POST', url, payload: call.raw.body, headers: { ...headers, 'content-type': call.raw.contentType } })
      : await berth.app.inject({ method: 'POST', url, payload: JSON.stringify(call.input), headers: { ...headers, 'content-type': 'application/json' } });
  return { status: response.statusCode, text: response.body };
}

/** A query carries text only: each value as a client would write it into the address. */
const stringsOf = (input: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(input).map(([key, value]) => [key, typeof value === 'string' ? value : JSON.stringify(value)]));

function inErrorShape(body: any): boolean {
  return !!body && typeof body.message === 'string' && typeof body.code === 'string' && Array.isArray(body.issues)
    && body.issues.every((issue: unknown) => typeof (issue as { message?: unknown } | null)?.message === 'string');
}

function parse(text: string): any {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
