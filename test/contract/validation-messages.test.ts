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
      'enabled must be true or false or null', 'replicas must be an integer from 0 to 9007199254740991',
    ]);
    assert.deepEqual(await messagesOf('project.create', { name: '', colour: 'red' }), ['colour is not a known field', 'name must not be empty']);
    assert.deepEqual(await messagesOf('registry.create', {
      registryName: 'r', username: 'u', password: 'p', registryUrl: 'x', registryType: 'public', imagePrefix: null,
    }), ['registryType must be one of selfHosted, cloud']);
  });

  it('refuses on save a count or a size past what the orchestrator takes, which could never deploy', async () => {
    assert.deepEqual(await messagesOf('application.update', { applicationId: 'a', replicas: 1e20, memoryLimit: 1e300 }), [
      'memoryLimit must be bytes (4194304 is the least the orchestrator takes): 0 for none, or from 4194304 to 9007199254740991 or null',
      'replicas must be an integer from 0 to 9007199254740991',
    ]);
    const cpus = 'cpuLimit must be nano-CPUs (1000000000 is one CPU, 1000000 the least the orchestrator takes): 0 for none, or from 1000000 to 9007199254740991 or null';
    assert.deepEqual(await messagesOf('dbgamma.update', { dbgammaId: 'a', cpuLimit: 2 ** 64 }), [cpus]);
    // Half a nano-CPU: a CPU count typed where nano-CPUs are asked.
    assert.deepEqual(await messagesOf('application.update', { applicationId: 'a', cpuLimit: 0.5 }), [cpus]);
  });

  it('counts a password\'s characters as a person does: four emoji are four characters, not eight', async () => {
    const fourEmoji = '\u{1F600}'.repeat(4);
    assert.deepEqual(await messagesOf('auth.login', { email: 'someone@example.com', password: fourEmoji }),
      ['password must be at least 8 characters long']);
    assert.deepEqual(await messagesOf('auth.createUser', { id: 'x', token: 't', password: fourEmoji }),
      ['password must be at least 8 characters long']);
    assert.match((await messagesOf('auth.update', { email: null, password: fourEmoji })).join(), /^password:? must be at least 8 characters long$/);
    // Eight emoji are eight characters: past validation, the login is refused as any wrong password is.
    assert.equal((await berth.call('auth.login', { email: 'someone@example.com', password: '\u{1F600}'.repeat(8) }, { token: null })).status, 401);
  });

  it('says the same in the top-level message', async () => {
    const answer = await berth.call('project.create', {});
    assert.equal(answer.body.message, 'name is required');
  });
});
