// A deploy token is unique within its kind, decided against the log like every other unique name:
// many services choosing one token at once, exactly one wins, and the log holds one claim, of a
// keyed digest of the token (never the token). A token let go (replaced, or its service removed) is free again.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { applicationAggregate } from '@berth/shared/domain/application/application';
import { composeAggregate } from '@berth/shared/domain/compose/compose';
import { fold, type AnyAggregate } from '@berth/shared/domain/aggregate';
import { reservationAggregate } from '@berth/shared/domain/reservation/reservation';
import { ALL_TOKENS_CLAIMED, tokenClaimKey } from '../../command-api/src/deploy-token.ts';
import { startBerth, type TestBerth } from '../support/berth.ts';
import { times } from '../support/one-winner.ts';
import { executeInLog } from '../support/log.ts';

const RACERS = 50;
const kinds = [
  { aggregate: applicationAggregate, create: 'application.create', update: 'application.update', remove: 'application.delete', refresh: 'application.refreshToken', id: 'applicationId', path: '' },
  { aggregate: composeAggregate, create: 'compose.create', update: 'compose.update', remove: 'compose.delete', refresh: 'compose.refreshToken', id: 'composeId', path: 'compose/' },
] as const;
type Kind = typeof kinds[number];

describe('a deploy token taken at once by many services', () => {
  let berth: TestBerth;
  let projectId: string;
  before(async () => {
    berth = await startBerth();
    ({ projectId } = await berth.ok('project.create', { name: 'token races' }));
  });
  after(() => berth.stop());

  const token = (what: string) => `${what}-${Math.random().toString(36).slice(2)}-0123456789abcdef`;
  const service = async (kind: Kind) => (await berth.ok(kind.create, { name: 'svc', projectId }))[kind.id] as string;
  const choose = (kind: Kind, id: string, refreshToken: string) => berth.call(kind.update, { [kind.id]: id, refreshToken });

  /** How many times the log claimed `token` for `kind`, and whether the token itself is anywhere in the log. */
  async function claimsOf(kind: Kind, chosen: string) {
    const { events } = await berth.berth.infrastructure.eventStore.readStream(`reservation-${tokenClaimKey(berth.berth.infrastructure, kind.aggregate, chosen)}`);
    return events.filter((event) => event.type === 'NameReserved').length;
  }

  /** Who holds the claim of `token` for `kind` now, as the log has it. */
  async function holderOf(kind: Kind, chosen: string) {
    const { events } = await berth.berth.infrastructure.eventStore.readStream(`reservation-${tokenClaimKey(berth.berth.infrastructure, kind.aggregate, chosen)}`);
    return fold(reservationAggregate, events as never)?.owner ?? null;
  }

  for (const kind of kinds) {
    it(`${RACERS} ${kind.aggregate.name} services choosing one token at once: one wins, the others 409 naming refreshToken, one claim`, async () => {
      const chosen = token('raced');
      const ids = await times(RACERS, () => service(kind));
      const answers = await Promise.all(ids.map((id) => choose(kind, id, chosen)));
      const statuses = answers.map((answer) => answer.status);
      assert.equal(statuses.filter((status) => status === 200).length, 1, JSON.stringify(statuses));
      for (const answer of answers.filter((a) => a.status !== 200)) {
        assert.equal(answer.status, 409, JSON.stringify(answer.body));
        // The spec's error shape, naming refreshToken, saying why (not the digest the claim was refused on).
        assert.equal(answer.body.code, 'CONFLICT');
        assert.equal(answer.body.message, 'refreshToken is the deploy token of another service: choose another');
        assert.deepEqual(answer.body.issues.map((issue: { path?: string }) => issue.path), ['refreshToken']);
        assert.equal(answer.body.issues[0].message, 'refreshToken is the deploy token of another service: choose another');
      }
      assert.equal(await claimsOf(kind, chosen), 1);
      assert.ok(!(await berth.eventLog()).includes(chosen), 'the token is in the log in clear');
      const winner = ids[answers.findIndex((answer) => answer.status === 200)];
      const pushed = await berth.app.inject({ method: 'POST', url: `/api/deploy/${kind.path}${chosen}`, payload: {} });
      // The winner has nothing to deploy yet: the push found it (a 4xx saying why), not 401.
      assert.notEqual(pushed.statusCode, 401, pushed.body);
      assert.equal((await berth.ok(`${kind.aggregate.name}.one`, { [kind.id]: winner })).refreshToken, chosen);
    });

    it(`a ${kind.aggregate.name} token let go by a change, a refresh or a removal can be chosen by another`, async () => {
      const [first, second] = [await service(kind), await service(kind)];
      const [replaced, next] = [token('replaced'), token('next')];
      await berth.ok(kind.update, { [kind.id]: first, refreshToken: replaced });
      await berth.refused(kind.update, { [kind.id]: second, refreshToken: replaced }, 409, 'refreshToken');
      await berth.ok(kind.update, { [kind.id]: first, refreshToken: next });
      await berth.ok(kind.update, { [kind.id]: second, refreshToken: replaced });

      await berth.ok(kind.update, { [kind.id]: first, refreshToken: next });
      const refreshed = await berth.ok(kind.refresh, { [kind.id]: first });
      assert.notEqual(refreshed.refreshToken, next);
      await berth.ok(kind.update, { [kind.id]: second, refreshToken: next });
      // The refreshed token is claimed too: another cannot choose it.
      await berth.refused(kind.update, { [kind.id]: second, refreshToken: refreshed.refreshToken }, 409, 'refreshToken');

      await berth.ok(kind.remove, { [kind.id]: second });
      const third = await service(kind);
      await berth.ok(kind.update, { [kind.id]: third, refreshToken: next });
      await berth.ok(kind.update, { [kind.id]: first, refreshToken: replaced });
    });

    it(`changes of one ${kind.aggregate.name}'s token at once: one wins, the others are refused, and only the token it holds stays claimed`, async () => {
      const id = await service(kind);
      const chosen = Array.from({ length: 5 }, (_, i) => token(`at-once-${i}`));
      const answers = await Promise.all([...chosen.map((each) => choose(kind, id, each)), berth.call(kind.refresh, { [kind.id]: id })]);
      assert.ok(answers.every((answer) => [200, 409].includes(answer.status)), JSON.stringify(answers.map((answer) => answer.body)));
      for (const answer of answers.filter((a) => a.status === 409)) assert.deepEqual(answer.body.issues.map((issue: { path?: string }) => issue.path), [kind.id]);
      const held = (await berth.ok(`${kind.aggregate.name}.one`, { [kind.id]: id })).refreshToken as string;
      for (const each of chosen.filter((candidate) => candidate !== held)) {
        assert.equal(await holderOf(kind, each), null, 'a token the service does not hold stays claimed');
        await berth.ok(kind.update, { [kind.id]: await service(kind), refreshToken: each });
      }
    });

    it(`a ${kind.aggregate.name}'s token made by Berth on create is claimed: another cannot choose it`, async () => {
      const created = await berth.ok(kind.create, { name: 'made', projectId });
      const other = await service(kind);
      await berth.refused(kind.update, { [kind.id]: other, refreshToken: created.refreshToken }, 409, 'refreshToken');
      assert.equal(await claimsOf(kind, created.refreshToken), 1);
    });
  }

  it('tokens saved before the claims are claimed when the API starts: pushes find their service by the claim, others cannot choose them, and an unknown token opens no record', async () => {
    const first = await startBerth();
    const { projectId: legacyProject } = await first.ok('project.create', { name: 'from before the claims' });
    const legacy = await Promise.all(kinds.map((kind) => first.ok(kind.create, { name: 'legacy', projectId: legacyProject })));
    // As a log from before the claims: each token's claim, and the word that all are claimed, taken back out.
    const infra = first.berth.infrastructure;
    const unclaim = (key: string, owner: string) =>
      executeInLog(first, reservationAggregate as unknown as AnyAggregate, key, { type: 'Release', data: { key, owner } });
    for (const [i, kind] of kinds.entries()) await unclaim(tokenClaimKey(infra, kind.aggregate, legacy[i].refreshToken), legacy[i][kind.id]);
    await unclaim(ALL_TOKENS_CLAIMED, 'berth');
    await first.stop({ keepData: true });

    const second = await startBerth({ dataDir: first.dataDir });
    try {
      const { projectId: otherProject } = await second.ok('project.create', { name: 'after' });
      for (const [i, kind] of kinds.entries()) {
        const key = tokenClaimKey(second.berth.infrastructure, kind.aggregate, legacy[i].refreshToken);
        const { events } = await second.berth.infrastructure.eventStore.readStream(`reservation-${key}`);
        assert.equal(fold(reservationAggregate, events as never)?.owner, legacy[i][kind.id], `the ${kind.aggregate.name}'s token is claimed for it`);
        const pushed = await second.app.inject({ method: 'POST', url: `/api/deploy/${kind.path}${legacy[i].refreshToken}`, payload: {} });
        assert.notEqual(pushed.statusCode, 401, pushed.body);
        const other = (await second.ok(kind.create, { name: 'other', projectId: otherProject }))[kind.id];
        await second.refused(kind.update, { [kind.id]: other, refreshToken: legacy[i].refreshToken }, 409, 'refreshToken');
      }
      const secrets = second.berth.infrastructure.secrets;
      const open = secrets.open.bind(secrets);
      let opened = 0;
      secrets.open = (sealed) => { opened++; return open(sealed); };
      for (const kind of kinds) {
        const unknown = await second.app.inject({ method: 'POST', url: `/api/deploy/${kind.path}${token('unknown')}`, payload: {} });
        assert.equal(unknown.statusCode, 401, unknown.body);
      }
      assert.equal(opened, 0, 'an unknown token opened records');
    } finally {
      await second.stop();
    }
  });

  it(`${RACERS} services of both kinds choosing one token at once: one of each kind wins (each kind has its own push route)`, async () => {
    const chosen = token('mixed');
    const racers = await times(RACERS, async (i) => {
      const kind = kinds[i % 2]!;
      return { kind, id: await service(kind) };
    });
    const answers = await Promise.all(racers.map(({ kind, id }) => choose(kind, id, chosen)));
    for (const kind of kinds) {
      const mine = answers.filter((_answer, i) => racers[i]!.kind === kind);
      assert.equal(mine.filter((answer) => answer.status === 200).length, 1, JSON.stringify(mine.map((a) => a.status)));
      assert.ok(mine.every((answer) => answer.status === 200 || (answer.status === 409 && answer.body.issues?.[0]?.path === 'refreshToken')));
      assert.equal(await claimsOf(kind, chosen), 1);
    }
  });
});
