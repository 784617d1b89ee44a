// A refused payload says, in a sentence a user can act on, what each field must be.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startBerth, type TestBerth } from '../support/berth.ts';

describe('validation messages', () => {
  let berth: TestBerth;
  before(async () => { berth = await startBerth(); });
  after(() => berth.stop());

  const messagesOf = async (operation: string, input: Record<string, unknown>) => {
    const answer = await berth.call(operation, input);
    assert.equal(answer.status, 400, JSON.stringify(answer.body));
    assert.equal(answer.body.code, 'BAD_REQUEST');
    return answer.body.issues.map((issue: { message: string }) => issue.message);
  };

  it('names each field and what it must be', async () => {
    assert.deepEqual(await messagesOf('port.create', { publishedPort: 0, targetPort: 1.5, applicationId: 'a' }), [
      'publishedPort must be an integer from 1 to 65535', 'targetPort must be an integer from 1 to 65535',
    ]);
    assert.deepEqual(await messagesOf('admin.createUserInvitation', { email: 'not an address' }), ['email must be an email address']);
    assert.deepEqual(await messagesOf('application.update', { applicationId: 'a', replicas: -1, enabled: 'yes' }), [
      'enabled must be true or false or null', 'replicas must be an integer of at least 0',
    ]);
    assert.deepEqual(await messagesOf('project.create', { name: '', colour: 'red' }), ['colour is not a known field', 'name must not be empty']);
    assert.deepEqual(await messagesOf('registry.create', {
      registryName: 'r', username: 'u', password: 'p', registryUrl: 'x', registryType: 'public', imagePrefix: null,
    }), ['registryType must be one of selfHosted, cloud']);
  });

  it('says the same in the top-level message', async () => {
    const answer = await berth.call('project.create', {});
    assert.equal(answer.body.message, 'name is required');
  });
});
