// A service's `env` holds its secrets (passwords a template generated, keys a user set), so it is
// recorded sealed whole, wherever it is given: application saveEnvironment and update, compose
// update and deployTemplate (compose.create takes no env), each database kind's saveEnvironment
// and update. The log (and so the history) never holds its text in clear; answers to those who may
// see the service show it opened; the same text sent again appends nothing; an empty or null env is
// kept as given. An env recorded in clear before this still reads as it was, and saving it again
// records it sealed.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Context } from '@berth/command-api/context';
import { ENGINES } from '@berth/shared/contract/databases';
import { isSealed } from '@berth/shared/crypto/secrets';
import { applicationAggregate } from '@berth/shared/domain/application/application';
import { envMap } from '@berth/shared/domain/compose/values';
import { startBerth, type TestBerth } from '../support/berth.ts';
import { databaseCredentials } from '../support/databases.ts';
import { invitedUser } from '../support/users.ts';

/** A value no other part of the log could hold by chance. */
const secret = (what: string) => `${what}-${Math.random().toString(36).slice(2)}-in-clear`;

describe('a service env, recorded sealed', () => {
  let berth: TestBerth;
  let projectId: string;
  before(async () => {
    berth = await startBerth();
    ({ projectId } = await berth.ok('project.create', { name: 'sealed envs' }));
  });
  after(() => berth.stop());

  /** The `env` of every event of `stream` that carries one, as recorded. */
  async function recordedEnvs(stream: string): Promise<unknown[]> {
    const events = await berth.berth.infrastructure.eventStore.readAll(0, 100_000);
    return events.filter((event) => event.stream === stream && 'env' in (event.data as object))
      .map((event) => (event.data as { env: unknown }).env);
  }

  /** `env` saved by `save` is sealed in its stream's last event, not in the log in clear, answered whole by `one`; saved again, nothing is appended. */
  async function sealsOnSave(stream: string, one: [string, Record<string, unknown>], save: (env: string) => Promise<{ env: unknown }>) {
    const key = secret(stream.split('-')[0]!);
    const env = `API_KEY=${key}\n# a comment\nMODE=test`;
    assert.equal((await save(env)).env, env, 'the answer shows the env opened');
    assert.ok(isSealed((await recordedEnvs(stream)).at(-1)), `${stream}: the env is not recorded sealed`);
    assert.ok(!(await berth.eventLog()).includes(key), `${stream}: the env is in the log in clear`);
    assert.equal((await berth.ok(one[0], one[1])).env, env);
    const head = await berth.head();
    assert.equal((await save(env)).env, env);
    assert.equal(await berth.head(), head, `${stream}: the same env sent again appended an event`);
  }

  it('seals an application env on saveEnvironment and update, answers it whole, and appends nothing for the same text', async () => {
    const { applicationId } = await berth.ok('application.create', { name: 'web', projectId });
    const stream = `application-${applicationId}`;
    const one: [string, Record<string, unknown>] = ['application.one', { applicationId }];
    await sealsOnSave(stream, one, (env) => berth.ok('application.saveEnvironment', { applicationId, env }));
    await sealsOnSave(stream, one, (env) => berth.ok('application.update', { applicationId, env }));
    // The same text through the other operation is the same record too.
    const env = (await berth.ok('application.one', { applicationId })).env as string;
    const head = await berth.head();
    await berth.ok('application.saveEnvironment', { applicationId, env });
    assert.equal(await berth.head(), head);
  });

  it('keeps an empty or null env as given, not sealed', async () => {
    const { applicationId } = await berth.ok('application.create', { name: 'bare', projectId });
    await berth.ok('application.saveEnvironment', { applicationId, env: 'A=1' });
    assert.equal((await berth.ok('application.saveEnvironment', { applicationId, env: '' })).env, '');
    assert.equal((await berth.ok('application.update', { applicationId, env: null })).env, null);
    assert.deepEqual((await recordedEnvs(`application-${applicationId}`)).slice(-2), ['', null]);
  });

  it('seals a compose env on update, answers it whole, and appends nothing for the same text', async () => {
    const { composeId } = await berth.ok('compose.create', { name: 'stack', projectId });
    await sealsOnSave(`compose-${composeId}`, ['compose.one', { composeId }], (env) => berth.ok('compose.update', { composeId, env }));
  });

  it('lets a user without canCreateServices send a compose env back unchanged (sealed in the record, the same text)', async () => {
    const env = `TOKEN=${secret('shared')}`;
    const { composeId } = await berth.ok('compose.create', { name: 'shared', projectId });
    await berth.ok('compose.update', { composeId, env });
    const user = await invitedUser(berth, { accesedProjects: [projectId], accesedServices: [composeId] });
    assert.equal((await berth.call('compose.one', { composeId }, { token: user.token })).body.env, env, 'a user who may see the service is not shown its env');
    const head = await berth.head();
    const answer = await berth.call('compose.update', { composeId, env, name: 'shared' }, { token: user.token });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.equal(await berth.head(), head);
  });

  it('lets a user without canCreateServices send a compose git URL with credentials back unchanged', async () => {
    const customGitUrl = `https://deploy:${secret('git')}@git.example.test/acme/stack.git`;
    const { composeId } = await berth.ok('compose.create', { name: 'from git', projectId });
    await berth.ok('compose.update', { composeId, sourceType: 'git', customGitUrl });
    const user = await invitedUser(berth, { accesedProjects: [projectId], accesedServices: [composeId] });
    const head = await berth.head();
    const answer = await berth.call('compose.update', { composeId, customGitUrl, name: 'from git' }, { token: user.token });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.equal(await berth.head(), head);
  });

  it('seals the env a template generated (its database passwords) in ComposeCreated, and answers it whole', async () => {
    const compose = await berth.ok('compose.deployTemplate', { projectId, id: 'wordpress' });
    const generated = envMap(compose.env);
    assert.ok(generated.DB_PASSWORD && generated.DB_ROOT_PASSWORD, 'the template generated no passwords');
    const [recorded] = await recordedEnvs(`compose-${compose.composeId}`);
    assert.ok(isSealed(recorded), 'ComposeCreated holds the generated env unsealed');
    const log = await berth.eventLog();
    for (const password of [generated.DB_PASSWORD, generated.DB_ROOT_PASSWORD]) assert.ok(!log.includes(password), 'a generated password is in the log in clear');
    assert.equal((await berth.ok('compose.one', { composeId: compose.composeId })).env, compose.env);
  });

  for (const engine of ENGINES) {
    it(`seals a ${engine} env on saveEnvironment and update, answers it whole, and appends nothing for the same text`, async () => {
      const idField = `${engine}Id`;
      const created = await berth.ok(`${engine}.create`, { name: 'db', appName: 'db', projectId, ...databaseCredentials(engine) });
      const id = { [idField]: created[idField] };
      const stream = `${engine}-${String(created[idField])}`;
      await sealsOnSave(stream, [`${engine}.one`, id], (env) => berth.ok(`${engine}.saveEnvironment`, { ...id, env }));
      await sealsOnSave(stream, [`${engine}.one`, id], (env) => berth.ok(`${engine}.update`, { ...id, env }));
    });
  }

  it('shows the env sealed in the history, as other secrets', async () => {
    const key = secret('history');
    const { applicationId } = await berth.ok('application.create', { name: 'audited', projectId });
    await berth.ok('application.saveEnvironment', { applicationId, env: `API_KEY=${key}` });
    const { events } = await berth.ok('events.all', { stream: `application-${applicationId}`, type: 'ApplicationEnvironmentSaved' });
    assert.equal(events.length, 1);
    assert.ok(isSealed(events[0].data.env), 'the history shows the env unsealed');
    assert.ok(!JSON.stringify(events).includes(key));
  });

  it('reads an env recorded in clear before it was sealed as it is, and seals it when it is saved again', async () => {
    const { applicationId } = await berth.ok('application.create', { name: 'older', projectId });
    const env = `LEGACY=${secret('legacy')}`;
    // As an event appended before env was sealed holds it.
    const ctx = new Context(berth.berth.infrastructure, null, 'older-event');
    await ctx.execute(applicationAggregate, applicationId, { type: 'SaveEnvironment', data: { applicationId, env } });
    await berth.berth.infrastructure.readStore.waitFor(ctx.position, 5_000);
    assert.equal((await berth.ok('application.one', { applicationId })).env, env);
    assert.equal((await berth.ok('application.saveEnvironment', { applicationId, env })).env, env);
    const envs = await recordedEnvs(`application-${applicationId}`);
    assert.equal(envs.at(-2), env);
    assert.ok(isSealed(envs.at(-1)), 'saved again, the env is still in clear');
  });
});
