// What a webhook receiver is sent of the account events: each event as recorded less the fields
// its aggregate hides from every answer (password and invitation-token hashes, token hashes), at
// any depth, and less every sealed secret and every env (whose text holds a service's secrets, like
// the passwords a template generates): no secret leaves, in clear or sealed.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { generate } from 'otplib';
import { isSealed } from '@berth/shared/crypto/secrets';
import { aggregates } from '@berth/shared/domain/index';
import { splitStream, type RecordedEvent } from '@berth/shared/events/event';
import type { HttpClient, ListeningBerth } from '../support/http.ts';
import { notifyingBerth, signInAdmin, startReceiver, subscribeInLog, type Receiver } from './support.ts';

const ADMIN = { email: 'hidden@berth.test', password: 'a long enough password' };
const USER_PASSWORD = 'the invited user password';
const CHANGED_PASSWORD = 'a changed admin password';
const STORAGE_SECRET = 'a storage secret in clear';
const TYPES = ['AdminCreated', 'UserInvited', 'InvitationAccepted', 'ProfileUpdated', 'TwoFactorEnabled', 'ApiTokenIssued', 'DestinationCreated', 'ApplicationEnvironmentSaved', 'ComposeCreated'];
const ENV_SECRET = 'an env password in clear';

const hiddenOf = (event: RecordedEvent) =>
  [...aggregates.find((aggregate) => aggregate.name === splitStream(event.stream).aggregate)?.hidden ?? [], 'env'];

/** Every key of `value`, at any depth. */
const keysOf = (value: unknown): string[] => value && typeof value === 'object'
  ? Object.entries(value).flatMap(([key, item]) => [key, ...keysOf(item)])
  : [];

describe('webhook bodies of events with hidden fields', () => {
  let server: ListeningBerth;
  let api: HttpClient;
  let receiver: Receiver;
  const bodies = new Map<string, RecordedEvent>();
  const clear: string[] = [ADMIN.password, USER_PASSWORD, CHANGED_PASSWORD, STORAGE_SECRET, ENV_SECRET];

  before(async () => {
    receiver = await startReceiver((_request, body, response) => {
      const event = JSON.parse(body) as RecordedEvent;
      bodies.set(event.id, event);
      response.writeHead(204).end();
    });
    server = await notifyingBerth([50]);
    // Subscribed before the admin exists, so that AdminCreated is sent too (the API needs an admin).
    await subscribeInLog(server, `${receiver.url}/hook`, TYPES);
    api = await signInAdmin(server, ADMIN);
    const invitation = await api.ok('admin.createUserInvitation', { email: 'invited@berth.test' });
    clear.push(invitation.token);
    await api.ok('auth.createUser', { id: invitation.id, token: invitation.token, password: USER_PASSWORD });
    const setup = await api.ok('auth.generate2FASecret', {});
    clear.push(setup.secret);
    await api.ok('auth.verify2FASetup', { pin: await generate({ secret: setup.secret }), secret: setup.secret });
    const { token } = await api.ok('auth.generateToken', {});
    clear.push(token, token.split('.')[1]);
    await api.ok('destination.create', {
      name: 'offsite', accessKey: 'key', bucket: 'bucket', region: 'eu', endpoint: 'http://127.0.0.1:9', secretAccessKey: STORAGE_SECRET,
    });
    await api.ok('auth.update', { email: null, password: CHANGED_PASSWORD });
    const { projectId } = await api.ok('project.create', { name: 'envs' });
    const { applicationId } = await api.ok('application.create', { name: 'app', projectId });
    await api.ok('application.saveEnvironment', { applicationId, env: `DB_PASSWORD=${ENV_SECRET}` });
    // A template's compose service, whose env holds the passwords it generated.
    const template = await api.ok('compose.deployTemplate', { projectId, id: 'grafana' });
    clear.push(...template.env.split('\n').map((line: string) => line.split('=').slice(1).join('=')).filter((value: string) => value.length >= 8));
  });
  after(async () => {
    await server.stop();
    await receiver.close();
  });

  it('sends each event as recorded less its hidden fields and its sealed secrets', async () => {
    const log = (await server.berth.infrastructure.eventStore.readAll(0, 100_000)).filter((event) => TYPES.includes(event.type));
    assert.deepEqual(new Set(log.map((event) => event.type)), new Set(TYPES));
    const deadline = Date.now() + 15_000;
    while (log.some((event) => !bodies.has(event.id))) {
      if (Date.now() > deadline) assert.fail(`not all sent: ${log.filter((event) => !bodies.has(event.id)).map((event) => event.type)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    for (const recorded of log) {
      const hidden = hiddenOf(recorded);
      const sent = bodies.get(recorded.id)!;
      assert.deepEqual(keysOf(sent.data).filter((key) => hidden.includes(key)), [], `${recorded.type} sent a hidden field`);
      const expected = JSON.parse(JSON.stringify(recorded, (key, value) => (hidden.includes(key) || isSealed(value) ? undefined : value)));
      assert.deepEqual(sent, expected, `${recorded.type} was sent as something other than the recorded event less its hidden fields and sealed secrets`);
      assert.ok(!JSON.stringify(sent).includes('enc:v1:'), `${recorded.type} sent a sealed secret`);
      for (const secret of clear) assert.ok(!JSON.stringify(sent).includes(secret), `${recorded.type} sent a secret in clear`);
    }
    const sentOf = (type: string) => log.filter((event) => event.type === type).map((event) => bodies.get(event.id)!.data as Record<string, unknown>);
    for (const type of ['AdminCreated', 'InvitationAccepted', 'ProfileUpdated']) {
      for (const data of sentOf(type)) assert.ok(!('passwordHash' in data), `${type} sent passwordHash`);
    }
    assert.ok(!('invitationTokenHash' in sentOf('UserInvited')[0]!));
    assert.ok(!('secretHash' in sentOf('ApiTokenIssued')[0]!));
    assert.deepEqual(Object.keys(sentOf('TwoFactorEnabled')[0]!).sort(), ['id', 'step']);
    assert.deepEqual(Object.keys(sentOf('ApplicationEnvironmentSaved')[0]!), ['applicationId']);
    assert.ok(!('env' in sentOf('ComposeCreated')[0]!) && sentOf('ComposeCreated')[0]!.name, 'ComposeCreated sent its env, or not its name');
    const destination = sentOf('DestinationCreated')[0]!;
    assert.ok(!('secretAccessKey' in destination) && destination.accessKey === 'key', 'DestinationCreated sent its secret key, or not its other fields');
  });
});
