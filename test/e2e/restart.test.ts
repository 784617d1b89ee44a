// Stopping Berth and starting it again on the same data folder loses and changes nothing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { projections } from '@berth/projections/catalogue';
import { startBerth, type TestBerth } from '../support/berth.ts';
import { buildWorld, readWorld, type Read } from './world.ts';

describe('restart on the same data folder', () => {
  let first: TestBerth;
  let second: TestBerth;
  let reads: Read[];
  let answers: Record<string, unknown>;
  let head: number;

  before(async () => {
    first = await startBerth();
    reads = await buildWorld((operation, input) => first.ok(operation, input), { projects: 3 });
    answers = await readWorld((operation, input) => first.ok(operation, input), reads);
    head = await first.head();
    await first.stop({ keepData: true });
    second = await startBerth({ dataDir: first.dataDir });
  });
  after(() => second.stop());

  it('answers every one and all exactly as before the restart', async () => {
    assert.ok(reads.length > 20, `only ${reads.length} reads: the world is too small to prove much`);
    assert.deepEqual(await readWorld((operation, input) => second.ok(operation, input), reads), answers);
  });

  it('keeps the log and the read models where they were, projecting nothing twice', async () => {
    // The test harness signs the admin in again, and a sign-in takes its rate-limit slots in the log: nothing else is appended.
    const since = await second.berth.infrastructure.eventStore.readAll(head, 1000);
    assert.deepEqual(since.filter((event) => !event.stream.startsWith('attempts-')).map((event) => event.type), []);
    const readStore = second.berth.infrastructure.readStore;
    const now = await second.head();
    for (const projection of projections) assert.equal(await readStore.checkpoint(projection.name), now, projection.name);
  });

  it('still accepts a token issued before the restart', async () => {
    const answer = await second.call('project.all', {}, { token: first.token });
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.body, answers['project.all {}']);
  });

  it('goes on projecting new commands from where it stopped', async () => {
    const [, input] = reads.find(([operation]) => operation === 'project.one')!;
    const updated = await second.ok('project.update', { ...input, name: 'after restart' });
    assert.equal(updated.name, 'after restart');
    assert.equal((await second.ok('project.one', input)).name, 'after restart');
    assert.ok(await second.head() > head);
  });

  it('does not offer a setup token once an admin exists', async () => {
    const answer = await second.call('auth.createAdmin', { email: 'other@berth.test', password: 'another password' });
    assert.equal(answer.status, 409);
    assert.equal(answer.body.code, 'CONFLICT');
  });
});
