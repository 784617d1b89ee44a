// bcrypt reads only a password's first 72 bytes: a longer one would let in anyone who knows its
// start. Such a password is refused, counted in UTF-8 bytes (37 `é` are 74 bytes), on create and
// update, and nothing is appended.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startBerth, type TestBerth } from '../support/berth.ts';

describe('a basic-auth password past bcrypt\'s 72 bytes', () => {
  let berth: TestBerth;
  let applicationId: string;
  before(async () => {
    berth = await startBerth();
    const { projectId } = await berth.ok('project.create', { name: 'guarded' });
    ({ applicationId } = await berth.ok('application.create', { name: 'shop', projectId }));
  });
  after(() => berth.stop());

  // berth.refused checks the status, that the issues name only password, and that nothing was appended.
  const refusedWithNothingAppended = async (operation: string, input: Record<string, unknown>) => {
    const body = await berth.refused<{ code: string; message: string }>(operation, input, 400, 'password');
    assert.equal(body.code, 'BAD_REQUEST');
    assert.match(body.message, /72 bytes/);
  };

  it('is refused on create, counted in bytes, naming password', async () => {
    await refusedWithNothingAppended('security.create', { applicationId, username: 'long', password: 'A'.repeat(73) });
    await refusedWithNothingAppended('security.create', { applicationId, username: 'accent', password: 'é'.repeat(37) });
  });

  it('is refused on update; 72 bytes exactly are accepted', async () => {
    const { securityId } = await berth.ok('security.create', { applicationId, username: 'alice', password: 'A'.repeat(72) });
    await berth.ok('security.update', { securityId, username: 'alice', password: 'é'.repeat(36) });
    await refusedWithNothingAppended('security.update', { securityId, username: 'alice', password: `${'é'.repeat(36)}x` });
  });
});
