// Answers are written with their declared schemas: what a record holds beyond them stays inside.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startBerth, type TestBerth } from '../support/berth.ts';

describe('declared answers', () => {
  let berth: TestBerth;
  before(async () => { berth = await startBerth(); });
  after(() => berth.stop());

  /** Adds a field to a stored record, as a future projection or a mistake might. */
  async function addField(collection: string, id: string, field: string, value: unknown) {
    const store = berth.berth.infrastructure.readStore;
    const doc = await store.get(collection, id);
    assert.ok(doc, `${collection} ${id} is not stored`);
    await store.commit([], 0, [{ collection, id, doc: { ...doc, [field]: value } }]);
    assert.equal((await store.get(collection, id))?.[field], value);
  }

  it('leaves out a field added to a record but not to the schema, in the record and in lists', async () => {
    const { projectId } = await berth.ok('project.create', { name: 'declared' });
    const { applicationId } = await berth.ok('application.create', { name: 'web', projectId });
    await addField('project', projectId, 'internalNote', 'not for answers');
    await addField('application', applicationId, 'internalNote', 'not for answers');
    const answers = [
      await berth.ok('project.one', { projectId }), await berth.ok('project.all'),
      await berth.ok('application.one', { applicationId }),
      await berth.ok('application.saveEnvironment', { applicationId, env: 'A=1' }),
    ];
    for (const answer of answers) assert.doesNotMatch(JSON.stringify(answer), /internalNote|not for answers/);
    assert.equal((await berth.ok('project.one', { projectId })).name, 'declared');
  });

  it('never answers an account its password hash or two-factor secret', async () => {
    const me = await berth.ok('auth.get');
    assert.equal(me.email, 'admin@berth.test');
    for (const field of ['passwordHash', 'twoFactorSecret', 'lastPinStep', 'invitationTokenHash']) assert.equal(field in me, false, field);
  });
});
