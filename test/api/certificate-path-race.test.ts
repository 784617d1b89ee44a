// A certificate's folder is its own, decided against the log: many certificates asking for one
// folder, or for folders nested in each other, at once: exactly one wins, the others answer 409
// naming certificatePath, and the log holds one claim. A removed certificate's folder, and the
// folders above it, are free again;
// one stored before folders were claimed in the log keeps its folder all the same.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { DomainEvent } from '@berth/shared/events/event';
import { streamName } from '@berth/shared/events/event';
import { envelope } from '@berth/shared/runtime/execute';
import { selfSignedCertificate } from '../support/certificate.ts';
import { startBerth, type TestBerth } from '../support/berth.ts';
import { oneWinner, type RaceAnswer } from '../support/one-winner.ts';

const RACERS = 50;
type Answer = RaceAnswer<{ certificatePath?: string; certificateId?: string }>;

describe('certificate folders asked at once', () => {
  let berth: TestBerth;
  before(async () => { berth = await startBerth(); });
  after(() => berth.stop());

  const pair = selfSignedCertificate('shop.example.com');
  const folder = () => `race-${Math.random().toString(36).slice(2, 8)}`;
  const create = (certificatePath: string, i = 0) =>
    berth.call('certificates.create', { name: `c${i}`, ...pair, certificatePath, autoRenew: false }) as Promise<Answer>;
  const race = (pathOf: (i: number) => string) => Promise.all(Array.from({ length: RACERS }, (_, i) => create(pathOf(i), i)));

  /** The stored certificates whose folder is, is inside or contains `path`. */
  const storedAround = async (path: string) => (await berth.ok('certificates.all') as Array<{ certificatePath: string }>)
    .filter(({ certificatePath }) => certificatePath === path || certificatePath.startsWith(`${path}/`) || path.startsWith(`${certificatePath}/`));

  async function claimsOf(path: string) {
    const { events } = await berth.berth.infrastructure.eventStore.readStream(`certfolder-${path}`);
    return events.filter((event) => event.type === 'CertificateFolderTaken').length;
  }

  it(`${RACERS} certificates in one folder at once: one wins, one stored, one claim; free again once it is removed`, async () => {
    const path = `${folder()}/shop`;
    const winner = oneWinner(await race(() => path), 'certificatePath');
    assert.equal((await storedAround(path)).length, 1);
    assert.equal(await claimsOf(path), 1);
    await berth.ok('certificates.remove', { certificateId: winner.body.certificateId });
    const again = oneWinner(await race(() => path), 'certificatePath');
    assert.equal(again.body.certificatePath, path);
    assert.equal((await storedAround(path)).length, 1);
  });

  it(`${RACERS} certificates in folders nested in each other at once, outer and inner: one wins, one stored`, async () => {
    const outer = folder();
    const nested = [outer, `${outer}/a`, `${outer}/a/b`, `${outer}/a/b/c`];
    oneWinner(await race((i) => nested[i % nested.length]!), 'certificatePath');
    assert.equal((await storedAround(outer)).length, 1);
  });

  it('refuses a folder inside, or around, a stored certificate\'s, naming certificatePath; not one beside it', async () => {
    const outer = folder();
    await berth.ok('certificates.create', { name: 'middle', ...pair, certificatePath: `${outer}/a` });
    for (const certificatePath of [`${outer}/a/b`, outer, `${outer}/a`]) {
      await berth.refused('certificates.create', { name: 'clash', ...pair, certificatePath }, 409, 'certificatePath');
    }
    await berth.ok('certificates.create', { name: 'beside', ...pair, certificatePath: `${outer}/b` });
  });

  it('a certificate sent twice at once with its chosen id, among others asking its folder: one certificate in the folder', async () => {
    for (let trial = 0; trial < 5; trial++) {
      const path = `${folder()}/site`;
      const certificateId = `twice${Math.random().toString(36).slice(2, 10)}`;
      await Promise.all([
        berth.call('certificates.create', { name: 'a', ...pair, certificateId, certificatePath: path }),
        berth.call('certificates.create', { name: 'b', ...pair, certificateId, certificatePath: path }),
        ...Array.from({ length: 4 }, (_, i) => create(path, i)),
      ]);
      assert.equal((await storedAround(path)).length, 1);
      // The folder is still decided: none more can take it.
      assert.equal((await create(path)).status, 409);
    }
  });

  it('frees a folder for a certificate of its own once the certificates inside it are removed', async () => {
    const outer = folder();
    const inner = await berth.ok('certificates.create', { name: 'inner', ...pair, certificatePath: `${outer}/a/b` });
    const beside = await berth.ok('certificates.create', { name: 'beside', ...pair, certificatePath: `${outer}/c` });
    await berth.refused('certificates.create', { name: 'around', ...pair, certificatePath: `${outer}/a` }, 409, 'certificatePath');
    await berth.ok('certificates.remove', { certificateId: inner.certificateId });
    assert.equal((await create(`${outer}/a`)).status, 200);
    // `outer` still holds `beside` (and now `a`): not yet its own.
    await berth.refused('certificates.create', { name: 'around', ...pair, certificatePath: outer }, 409, 'certificatePath');
    assert.ok(beside.certificateId);
  });

  it(`${RACERS} certificates in folders side by side in one folder at once: all win`, async () => {
    const outer = folder();
    const answers = await race((i) => `${outer}/site-${i}`);
    assert.deepEqual(answers.filter((a) => a.status !== 200).map((a) => a.body), []);
    assert.equal((await storedAround(outer)).length, RACERS);
  });

  it('keeps the folder of a certificate stored before folders were claimed: refuses it, inside it and around it', async () => {
    const outer = folder();
    const certificateId = `legacy${Math.random().toString(36).slice(2, 10)}`;
    const cause = { actorId: null, correlationId: 'legacy', causationId: null, occurredAt: new Date().toISOString() };
    const created: DomainEvent = { type: 'CertificateCreated', data: {
      certificateId, name: 'legacy', certificateData: pair.certificateData, privateKey: berth.berth.infrastructure.secrets.seal(pair.privateKey),
      certificatePath: `${outer}/a`, autoRenew: false, commonName: 'shop.example.com', domains: ['shop.example.com'], issuer: 'CN=shop.example.com',
      notBefore: cause.occurredAt, notAfter: cause.occurredAt, fingerprint256: 'AA:BB', createdAt: cause.occurredAt,
    } };
    await berth.berth.infrastructure.eventStore.append(streamName('certificate', certificateId), [envelope(created, cause)], 'any');
    await berth.berth.infrastructure.readStore.waitFor(await berth.head(), 5_000);
    for (const certificatePath of [`${outer}/a`, `${outer}/a/b`, outer]) {
      await berth.refused('certificates.create', { name: 'clash', ...pair, certificatePath }, 409, 'certificatePath');
    }
    await berth.ok('certificates.remove', { certificateId });
    assert.equal((await create(`${outer}/a`)).status, 200);
  });
});
