// Walks every operation of the interface: a valid call does what the operation promises, and
// every bound the spec states, broken, answers 400 naming the field and appends nothing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Value } from '@sinclair/typebox/value';
import { operations } from '@berth/shared/contract/index';
import type { TestBerth } from '../support/berth.ts';
import { startBerthWithFixtures, type Fixtures } from './fixtures.ts';
import { ID_FIELD, validInput } from './valid-input.ts';
import { breaches, fieldsOf } from './schema-walk.ts';

/** Operations whose capability comes with a later issue: they answer 501 and change nothing. */
const PENDING = new Set<string>([]);

/** Valid calls that answer something other than 200 by design. */
const EXPECTED_STATUS: Record<string, number> = {
  'auth.createAdmin': 409,
  // The sample account gave no password to auth.login just before: sign in again.
  'auth.verifyLogin2FA': 401,
  'auth.verify2FASetup': 400,
  // Nothing listens at the fixture's endpoint: a real attempt, refused with the reason.
  'destination.testConnection': 400,
  // The fixture's backup has never run: there is no dump to restore (400 naming key).
  'backup.restore': 400,
  // The fixture's database was never deployed, and its default image cannot be pulled here.
  ...Object.fromEntries(['dbalpha', 'dbbeta', 'dbgamma', 'dbdelta', 'dbepsilon'].flatMap((e) => ['start', 'stop', 'deploy', 'reload'].map((p) => [`${e}.${p}`, 409]))),
  // The sample stream name names no stream.
  'events.stream': 404,
  // Nothing answers a login at the sample registry URL: the engine's reason, as a 400.
  'registry.testRegistry': 400,
  // The registry's image cannot be pulled here (the tests name a local one when they need it).
  'registry.enableSelfHostedRegistry': 400,
  // The engine knows no container or node of the sample id.
  'container.getConfig': 404,
  'cluster.removeWorker': 404,
  // No reactors run here: the engine's answer (or a manual backup's run) does not come within the (short) bound.
  'application.start': 409, 'application.stop': 409, 'application.reload': 409, 'compose.stop': 409,
  ...Object.fromEntries(['Dbalpha', 'Dbbeta', 'Dbgamma', 'Dbdelta', 'Dbepsilon'].map((engine) => [`backup.manualBackup${engine}`, 409])),
  // The fixture's compose service has no compose file yet: nothing to deploy (400 naming composeFile).
  'compose.deploy': 400, 'compose.redeploy': 400,
  // Only a successful deployment can be rolled back to, and nothing runs deployments here.
  'deployment.rollback': 400,
  // No forge app is configured here (and the sample private key is no key).
  'admin.getRepositories': 409, 'admin.getBranches': 409, 'admin.saveForgeApp': 400,
};

describe('contract: every operation of the interface', () => {
  let berth: TestBerth;
  let fixtures: Fixtures;
  before(async () => ({ berth, fixtures } = await startBerthWithFixtures()));
  after(() => berth.stop());

  for (const operation of operations) {
    describe(operation.name, () => {
      it('answers a valid call as documented', async () => {
        const input = await validInput(operation, fixtures);
        const head = await berth.head();
        // auth.logout revokes the token it is called with: spend a fresh one.
        const token = operation.name === 'auth.logout'
          ? (await berth.call('auth.login', { email: 'admin@berth.test', password: 'correct horse battery' }, { token: null })).body.token
          : berth.token;
        const answer = await berth.call(operation.name, input, { token });
        if (PENDING.has(operation.name)) {
          assert.equal(answer.status, 501, JSON.stringify(answer.body));
          assert.equal(answer.body.code, 'NOT_IMPLEMENTED');
          assert.equal(await berth.head(), head, 'a pending operation appended events');
          return;
        }
        assert.equal(answer.status, EXPECTED_STATUS[operation.name] ?? 200, JSON.stringify(answer.body));
        if (answer.status === 200) {
          const wrong = [...Value.Errors(operation.output, answer.body)].map((error) => `${error.path} ${error.message}`);
          assert.deepEqual(wrong, [], `the answer does not match the declared output: ${JSON.stringify(answer.body)}`);
        }
        const idField = fieldsOf(operation.input).find((field) => ID_FIELD.test(field.name) && field.required)?.name;
        if (answer.status === 200 && idField && idField !== 'id' && operation.procedure !== 'reload' && answer.body && typeof answer.body === 'object' && !Array.isArray(answer.body)) {
          // An account answers with `id` whatever the input called it (`authId`, `userId`).
          const answered = idField in answer.body ? answer.body[idField] : answer.body.id;
          assert.equal(answered, input[idField], `the answer is not the record ${idField}=${String(input[idField])}`);
        }
      });

      // Once an admin exists, auth.createAdmin is CONFLICT before its payload is read (its bounds: setup-first.test.ts).
      if (operation.name === 'auth.createAdmin') return;

      it('rejects an unknown field naming it, and appends nothing', async () => {
        const input = { ...(await validInput(operation, fixtures)), unexpectedField: 'x' };
        const head = await berth.head();
        const answer = await berth.call(operation.name, input);
        assert.equal(answer.status, 400);
        assert.ok(answer.body.issues.some((issue: { path?: string }) => issue.path === 'unexpectedField'), JSON.stringify(answer.body));
        assert.equal(await berth.head(), head);
      });

      for (const field of fieldsOf(operation.input)) {
        const cases = breaches(field).filter(({ value }) =>
          operation.method === 'POST' || value === undefined || typeof value === 'string');
        for (const { bound, value } of cases) {
          it(`answers 400 naming ${field.name} when it breaks "${bound}"`, async () => {
            const input = await validInput(operation, fixtures);
            if (value === undefined) delete input[field.name];
            else input[field.name] = value;
            const head = await berth.head();
            const answer = await berth.call(operation.name, input);
            assert.equal(answer.status, 400, JSON.stringify(answer.body));
            assert.equal(answer.body.code, 'BAD_REQUEST');
            assert.equal(typeof answer.body.message, 'string');
            assert.ok(answer.body.issues.some((issue: { path?: string }) => issue.path === field.name),
              `no issue names ${field.name}: ${JSON.stringify(answer.body.issues)}`);
            assert.equal(await berth.head(), head, 'a rejected call appended events');
          });
        }
      }
    });
  }
});
