// A first day with Berth, over a real listening server and a real HTTP client: set up the admin,
// build a project with an application, databases, a backup and what sits in front of them, read it
// all back, change it, remove it. Then what a careless client sends over the wire.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ENGINES, type Engine } from '@berth/shared/contract/databases';
import { eventLogOf } from '../support/berth.ts';
import { selfSignedCertificate } from '../support/certificate.ts';
import { databaseCredentials } from '../support/databases.ts';
import { listeningBerth, type HttpClient, type ListeningBerth, type Reply } from '../support/http.ts';

const ADMIN = { email: 'walker@berth.test', password: 'a long enough password' };

/** The spec's error shape: `{ message, code, issues: [{ message }] }`. */
function assertError(reply: Reply, status: number, code: string) {
  assert.equal(reply.status, status, JSON.stringify(reply.body));
  assert.equal(reply.headers.get('content-type')?.split(';')[0], 'application/json');
  assert.equal(typeof reply.body.message, 'string');
  assert.equal(reply.body.code, code);
  assert.ok(Array.isArray(reply.body.issues) && reply.body.issues.length > 0, 'issues is a non-empty array');
  for (const issue of reply.body.issues) assert.equal(typeof issue.message, 'string');
}

/** The per-engine create payloads, straight from the spec's table, with passwords distinct per engine and field. */
const CREDENTIALS = Object.fromEntries(
  ENGINES.map((engine) => [engine, databaseCredentials(engine, { name: 'shop', secret: '1' })]),
) as Record<Engine, Record<string, string>>;
const DEFAULT_IMAGES: Record<Engine, string> = {
  dbalpha: 'dbalpha:6', dbbeta: 'dbbeta:8', dbgamma: 'dbgamma:15', dbdelta: 'dbdelta:15', dbepsilon: 'dbepsilon:8',
};

const SECRETS = {
  destination: 'destination-secret-key-1',
  security: 'basic-auth-pass-1',
  registry: 'registry-pass-1',
};

/** Every record of `list` that has `field` equal to `id`. */
const having = (list: unknown, field: string, id: string) =>
  (list as Array<Record<string, unknown>>).filter((record) => record[field] === id);

describe('walkthrough over HTTP', () => {
  let server: ListeningBerth;
  let api: HttpClient;
  const ids: Record<string, string> = {};
  const certificate = selfSignedCertificate('shop.example.test', { altNames: ['shop.example.test'] });
  const head = () => server.berth.infrastructure.eventStore.head();

  before(async () => {
    server = await listeningBerth();
    api = server.client;
  });
  after(() => server.stop());

  describe('setting up', () => {
    it('refuses auth.createAdmin without the setup token', async () => {
      assertError(await api.call('auth.createAdmin', ADMIN, { token: null }), 401, 'UNAUTHORIZED');
      assertError(await api.call('auth.createAdmin', ADMIN, { token: 'not-the-setup-token' }), 401, 'UNAUTHORIZED');
    });

    it('creates the admin with the setup token from the data folder, once', async () => {
      const setupToken = server.setupToken();
      const admin = await api.call('auth.createAdmin', ADMIN, { token: setupToken });
      assert.equal(admin.status, 200, JSON.stringify(admin.body));
      assert.equal(admin.body.email, ADMIN.email);
      assert.equal(admin.body.rol, 'admin');
      assert.equal(admin.body.password, undefined);
      assert.equal(admin.body.passwordHash, undefined);
      assertError(await api.call('auth.createAdmin', ADMIN, { token: setupToken }), 409, 'CONFLICT');
    });

    it('logs in and answers who is calling', async () => {
      assertError(await api.call('auth.login', { ...ADMIN, password: 'wrong password' }), 401, 'UNAUTHORIZED');
      const { token } = await api.ok('auth.login', ADMIN);
      assert.equal(typeof token, 'string');
      api.token = token;
      const me = await api.ok('auth.get');
      assert.equal(me.email, ADMIN.email);
    });
  });

  describe('building', () => {
    it('creates a project', async () => {
      const reply = await api.call('project.create', { name: 'shop', description: 'the web shop' });
      assert.equal(reply.status, 200);
      assert.ok(Number(reply.headers.get('x-berth-position')) > 0);
      assert.equal(reply.body.name, 'shop');
      assert.match(reply.body.projectId, /^[\w-]{21}$/);
      assert.ok(!Number.isNaN(Date.parse(reply.body.createdAt)));
      ids.projectId = reply.body.projectId;
    });

    it('creates an application with a unique runtime name', async () => {
      const app = await api.ok('application.create', { name: 'web', appName: 'web', projectId: ids.projectId });
      assert.equal(app.name, 'web');
      assert.match(app.appName, /^web-[0-9a-f]{6}$/);
      assert.equal(app.applicationStatus, 'idle');
      assert.equal(app.projectId, ids.projectId);
      ids.applicationId = app.applicationId;
    });

    for (const engine of ENGINES) {
      it(`creates a ${engine} database with its default image`, async () => {
        const created = await api.ok(`${engine}.create`, {
          name: `${engine} db`, appName: engine, projectId: ids.projectId, ...CREDENTIALS[engine],
        });
        assert.equal(created.name, `${engine} db`);
        assert.match(created.appName, new RegExp(`^${engine}-[0-9a-f]{6}$`));
        assert.equal(created.containerImage, DEFAULT_IMAGES[engine]);
        assert.equal(created.applicationStatus, 'idle');
        assert.equal(created.databasePassword, CREDENTIALS[engine].databasePassword);
        ids[`${engine}Id`] = created[`${engine}Id`];
        assert.equal(typeof ids[`${engine}Id`], 'string');
      });
    }

    it('creates a destination', async () => {
      const destination = await api.ok('destination.create', {
        name: 'bucket', accessKey: 'AKIA-WALK', bucket: 'backups', region: 'eu-west-1',
        endpoint: 'https://storage.example.test', secretAccessKey: SECRETS.destination,
      });
      assert.equal(destination.name, 'bucket');
      ids.destinationId = destination.destinationId;
    });

    it('creates a backup of the dbgamma database to it', async () => {
      const backup = await api.ok('backup.create', {
        schedule: '0 3 * * *', enabled: true, prefix: 'nightly', destinationId: ids.destinationId,
        database: 'shop', dbgammaId: ids.dbgammaId, databaseType: 'dbgamma',
      });
      assert.equal(backup.schedule, '0 3 * * *');
      assert.equal(backup.dbgammaId, ids.dbgammaId);
      ids.backupId = backup.backupId;
    });

    it('creates a redirect, a port and a basic-auth user of the application', async () => {
      const redirect = await api.ok('redirects.create', {
        regex: '^http://shop.example.test/(.*)', replacement: 'https://shop.example.test/$1', permanent: true,
        applicationId: ids.applicationId,
      });
      assert.equal(redirect.permanent, true);
      ids.redirectId = redirect.redirectId;
      const port = await api.ok('port.create', { publishedPort: 8080, targetPort: 80, applicationId: ids.applicationId });
      assert.equal(port.protocol, 'tcp');
      ids.portId = port.portId;
      const user = await api.ok('security.create', { applicationId: ids.applicationId, username: 'staff', password: SECRETS.security });
      assert.equal(user.username, 'staff');
      ids.securityId = user.securityId;
    });

    it('creates a certificate from a PEM pair', async () => {
      const created = await api.ok('certificates.create', { name: 'shop tls', ...certificate, autoRenew: false });
      assert.equal(created.name, 'shop tls');
      assert.equal(created.certificateData, certificate.certificateData);
      ids.certificateId = created.certificateId;
    });

    it('creates a registry', async () => {
      const registry = await api.ok('registry.create', {
        registryName: 'hub', username: 'pusher', password: SECRETS.registry, registryUrl: 'registry.example.test',
        registryType: 'cloud', imagePrefix: null,
      });
      assert.equal(registry.registryName, 'hub');
      ids.registryId = registry.registryId;
    });
  });

  describe('reading back', () => {
    it('answers the project with its services, and lists it', async () => {
      const project = await api.ok('project.one', { projectId: ids.projectId });
      assert.equal(project.name, 'shop');
      const services = Object.values(project).filter(Array.isArray).flat();
      assert.equal(having(services, 'applicationId', ids.applicationId!).length, 1);
      for (const engine of ENGINES) assert.equal(having(services, `${engine}Id`, ids[`${engine}Id`]!).length, 1, engine);
      const all = await api.ok('project.all');
      assert.equal(having(all, 'projectId', ids.projectId!).length, 1);
    });

    it('answers the application with its ports, redirects and users', async () => {
      const app = await api.ok('application.one', { applicationId: ids.applicationId });
      assert.equal(app.name, 'web');
      assert.equal(having(app.ports, 'portId', ids.portId!).length, 1);
      assert.equal(having(app.redirects, 'redirectId', ids.redirectId!).length, 1);
      assert.equal(having(app.security, 'securityId', ids.securityId!).length, 1);
      assert.deepEqual(app.deployments, []);
    });

    it('answers each database, the dbgamma one with its backup', async () => {
      for (const engine of ENGINES) {
        const db = await api.ok(`${engine}.one`, { [`${engine}Id`]: ids[`${engine}Id`] });
        assert.equal(db.name, `${engine} db`);
        for (const [field, value] of Object.entries(CREDENTIALS[engine])) assert.equal(db[field], value, `${engine}.${field}`);
      }
      const gamma = await api.ok('dbgamma.one', { dbgammaId: ids.dbgammaId });
      assert.equal(having(gamma.backups, 'backupId', ids.backupId!).length, 1);
    });

    it('answers the backup, the destination, the redirect, the port and the user', async () => {
      assert.equal((await api.ok('backup.one', { backupId: ids.backupId })).prefix, 'nightly');
      const destination = await api.ok('destination.one', { destinationId: ids.destinationId });
      assert.equal(destination.bucket, 'backups');
      assert.equal(destination.secretAccessKey, SECRETS.destination);
      assert.equal(having(await api.ok('destination.all'), 'destinationId', ids.destinationId!).length, 1);
      assert.equal((await api.ok('redirects.one', { redirectId: ids.redirectId })).permanent, true);
      assert.equal((await api.ok('port.one', { portId: ids.portId })).publishedPort, 8080);
      const user = await api.ok('security.one', { securityId: ids.securityId });
      assert.equal(user.username, 'staff');
      assert.equal(user.password, SECRETS.security);
    });

    it('answers the certificate and the registry, one and all', async () => {
      const cert = await api.ok('certificates.one', { certificateId: ids.certificateId });
      assert.equal(cert.certificateData, certificate.certificateData);
      assert.equal(having(await api.ok('certificates.all'), 'certificateId', ids.certificateId!).length, 1);
      const registry = await api.ok('registry.one', { registryId: ids.registryId });
      assert.equal(registry.registryUrl, 'registry.example.test');
      assert.equal(having(await api.ok('registry.all'), 'registryId', ids.registryId!).length, 1);
    });

    it('never holds a secret in clear in the event log', async () => {
      const log = await eventLogOf(server.berth);
      const clear = [
        ADMIN.password, SECRETS.destination, SECRETS.security, SECRETS.registry,
        certificate.privateKey.split('\n')[1]!, // a line of the key's base64 body
        ...ENGINES.flatMap((engine) => [CREDENTIALS[engine].databasePassword!, CREDENTIALS[engine].databaseRootPassword ?? []].flat()),
      ];
      for (const secret of clear) assert.ok(!log.includes(secret), `the log holds "${secret.slice(0, 12)}…" in clear`);
    });
  });

  describe('changing', () => {
    it('updates the project and the application', async () => {
      const project = await api.ok('project.update', { projectId: ids.projectId, name: 'store', description: null });
      assert.equal(project.name, 'store');
      assert.equal(project.description, null);
      const app = await api.ok('application.update', { applicationId: ids.applicationId, name: 'website', description: 'front' });
      assert.equal(app.name, 'website');
      assert.equal((await api.ok('application.one', { applicationId: ids.applicationId })).description, 'front');
    });

    it('updates every database', async () => {
      for (const engine of ENGINES) {
        const id = { [`${engine}Id`]: ids[`${engine}Id`] };
        const updated = await api.ok(`${engine}.update`, { ...id, name: `${engine} renamed`, memoryLimit: 512 * 2 ** 20 });
        assert.equal(updated.name, `${engine} renamed`);
        assert.equal((await api.ok(`${engine}.one`, id)).memoryLimit, 512 * 2 ** 20);
      }
    });

    it('updates the destination and the backup', async () => {
      const destination = await api.ok('destination.update', {
        destinationId: ids.destinationId, name: 'bucket 2', accessKey: 'AKIA-WALK', bucket: 'backups-2',
        region: 'eu-west-1', endpoint: 'https://storage.example.test', secretAccessKey: SECRETS.destination,
      });
      assert.equal(destination.bucket, 'backups-2');
      const backup = await api.ok('backup.update', {
        backupId: ids.backupId, schedule: '30 4 * * *', enabled: false, prefix: 'daily', destinationId: ids.destinationId,
        database: 'shop',
      });
      assert.equal(backup.schedule, '30 4 * * *');
      assert.equal((await api.ok('backup.one', { backupId: ids.backupId })).enabled, false);
    });

    it('updates the redirect, the port, the user and the registry', async () => {
      const redirect = await api.ok('redirects.update', {
        redirectId: ids.redirectId, regex: '^/old/(.*)', replacement: '/new/$1', permanent: false,
      });
      assert.equal(redirect.permanent, false);
      const port = await api.ok('port.update', { portId: ids.portId, publishedPort: 8443, targetPort: 443, protocol: 'tcp' });
      assert.equal(port.publishedPort, 8443);
      const user = await api.ok('security.update', { securityId: ids.securityId, username: 'staff2', password: 'another-pass-2' });
      assert.equal(user.username, 'staff2');
      const registry = await api.ok('registry.update', { registryId: ids.registryId, registryName: 'hub 2' });
      assert.equal(registry.registryName, 'hub 2');
      assert.equal((await api.ok('registry.one', { registryId: ids.registryId })).registryName, 'hub 2');
    });
  });

  describe('removing', () => {
    const gone = async (operation: string, input: Record<string, string>) => {
      const reply = await api.call(operation, input);
      assertError(reply, 404, 'NOT_FOUND');
    };

    it('removes the application children, answering each removed record, then NOT_FOUND', async () => {
      assert.equal((await api.ok('redirects.delete', { redirectId: ids.redirectId })).redirectId, ids.redirectId);
      assert.equal((await api.ok('port.delete', { portId: ids.portId })).portId, ids.portId);
      assert.equal((await api.ok('security.delete', { securityId: ids.securityId })).securityId, ids.securityId);
      await gone('redirects.one', { redirectId: ids.redirectId! });
      await gone('port.one', { portId: ids.portId! });
      await gone('security.one', { securityId: ids.securityId! });
      const app = await api.ok('application.one', { applicationId: ids.applicationId });
      assert.deepEqual([app.ports, app.redirects, app.security], [[], [], []]);
    });

    it('removes the backup, the destination, the certificate and the registry', async () => {
      assert.equal((await api.ok('backup.remove', { backupId: ids.backupId })).backupId, ids.backupId);
      assert.equal((await api.ok('destination.remove', { destinationId: ids.destinationId })).destinationId, ids.destinationId);
      assert.equal((await api.ok('certificates.remove', { certificateId: ids.certificateId })).certificateId, ids.certificateId);
      assert.equal((await api.ok('registry.remove', { registryId: ids.registryId })).registryId, ids.registryId);
      await gone('backup.one', { backupId: ids.backupId! });
      await gone('destination.one', { destinationId: ids.destinationId! });
      await gone('certificates.one', { certificateId: ids.certificateId! });
      await gone('registry.one', { registryId: ids.registryId! });
    });

    it('removes the databases and the application, then the project', async () => {
      for (const engine of ENGINES) {
        const id = { [`${engine}Id`]: ids[`${engine}Id`]! };
        assert.equal((await api.ok(`${engine}.remove`, id))[`${engine}Id`], id[`${engine}Id`]);
        await gone(`${engine}.one`, id);
      }
      assert.equal((await api.ok('application.delete', { applicationId: ids.applicationId })).applicationId, ids.applicationId);
      await gone('application.one', { applicationId: ids.applicationId! });
      assert.equal((await api.ok('project.remove', { projectId: ids.projectId })).name, 'store');
      await gone('project.one', { projectId: ids.projectId! });
      assert.equal(having(await api.ok('project.all'), 'projectId', ids.projectId!).length, 0);
    });

    it('answers NOT_FOUND for a removal of what is already gone, and appends nothing', async () => {
      const before = await head();
      await gone('project.remove', { projectId: ids.projectId! });
      await gone('application.delete', { applicationId: ids.applicationId! });
      await gone('registry.remove', { registryId: ids.registryId! });
      assert.equal(await head(), before);
    });
  });

  describe('bad input over the wire', () => {
    const post = (path: string, body: string, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
      api.raw(path, { method: 'POST', headers: { authorization: `Bearer ${api.token}`, ...headers }, body });

    /** Runs `request`, expects the error, and checks nothing was appended. */
    const refused = async (request: () => Promise<Reply>, status: number, code: string) => {
      const before = await head();
      assertError(await request(), status, code);
      assert.equal(await head(), before);
    };

    it('answers malformed JSON with 400 PARSE_ERROR', () =>
      refused(() => post('/api/project.create', '{"name": "half'), 400, 'PARSE_ERROR'));

    it('answers a body that is not JSON with 415 UNSUPPORTED_MEDIA_TYPE', () =>
      refused(() => post('/api/project.create', 'name=shop', { 'content-type': 'text/plain' }), 415, 'UNSUPPORTED_MEDIA_TYPE'));

    it('answers a body over 1 MiB with 413 PAYLOAD_TOO_LARGE', () =>
      refused(() => post('/api/project.create', JSON.stringify({ name: 'x'.repeat(1024 * 1024 + 1) })), 413, 'PAYLOAD_TOO_LARGE'));

    it('answers the wrong method with 405 and says which one to use', async () => {
      await refused(() => api.raw('/api/project.create', { headers: { authorization: `Bearer ${api.token}` } }), 405, 'METHOD_NOT_SUPPORTED');
      const reply = await post('/api/project.all', '{}');
      assertError(reply, 405, 'METHOD_NOT_SUPPORTED');
      assert.equal(reply.headers.get('allow'), 'GET');
    });

    it('answers an unknown operation with 404', () =>
      refused(() => post('/api/project.explode', '{}'), 404, 'NOT_FOUND'));

    it('answers a missing, malformed or forged token with 401', async () => {
      await refused(() => api.call('project.create', { name: 'x' }, { token: null }), 401, 'UNAUTHORIZED');
      await refused(() => api.call('project.create', { name: 'x' }, { token: 'garbage' }), 401, 'UNAUTHORIZED');
      const [header, , signature] = api.token!.split('.');
      const forged = `${header}.${Buffer.from(JSON.stringify({ sub: 'someone', rol: 'admin' })).toString('base64url')}.${signature}`;
      await refused(() => api.call('project.create', { name: 'x' }, { token: forged }), 401, 'UNAUTHORIZED');
    });

    it('answers invalid fields with 400 BAD_REQUEST naming each field', async () => {
      const before = await head();
      const reply = await api.call('project.create', { name: '', color: 'red' });
      assertError(reply, 400, 'BAD_REQUEST');
      const fields = reply.body.issues.map((issue: { message: string }) => issue.message).join(' | ');
      assert.match(fields, /name/);
      assert.match(fields, /color/);
      assert.equal(await head(), before);
    });
  });
});
