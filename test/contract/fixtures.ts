// Real records for the contract suite to point its calls at: each id field of the interface maps
// to a way of making a fresh record of that kind through the API itself.
import type { Config } from '@berth/shared/runtime/config';
import { ENGINES, type Engine } from '@berth/shared/contract/databases';
import { selfSignedCertificate } from '../support/certificate.ts';
import { startBerth, type TestBerth } from '../support/berth.ts';
import { databaseCredentials } from '../support/databases.ts';

let counter = 0;
const unique = (base: string) => `${base}${++counter}`;

/** The engine a backup operation is about, from its name (`manualBackupDbalpha` → dbalpha). */
const engineOfOperation = (operation: string): Engine => {
  const match = /manualBackup(Db\w+)$/.exec(operation);
  return match ? (match[1]!.toLowerCase() as Engine) : 'dbgamma';
};

const freshPort = () => 20000 + (++counter % 40000);

export class Fixtures {
  private certificate = selfSignedCertificate();
  constructor(private readonly berth: TestBerth) {}

  async project(): Promise<string> {
    return (await this.berth.ok('project.create', { name: unique('project') })).projectId;
  }

  /** An application with a container image as its source, ready to deploy. */
  async application(): Promise<string> {
    const { applicationId } = await this.berth.ok('application.create', { name: unique('app'), projectId: await this.project() });
    await this.berth.ok('application.saveContainerProvider', { applicationId, containerImage: 'shop:1' });
    return applicationId;
  }

  async database(engine: Engine): Promise<string> {
    const created = await this.berth.ok(`${engine}.create`, {
      name: unique(engine), appName: unique(engine), projectId: await this.project(), ...databaseCredentials(engine),
    });
    return created[`${engine}Id`];
  }

  async destination(): Promise<string> {
    return (await this.berth.ok('destination.create', {
      name: unique('bucket'), accessKey: 'AKIA', bucket: 'backups', region: 'us-east-1', endpoint: 'http://127.0.0.1:9000', secretAccessKey: 'secret',
    })).destinationId;
  }

  async backup(engine: Engine): Promise<string> {
    return (await this.berth.ok('backup.create', {
      schedule: '0 3 * * *', prefix: 'nightly', destinationId: await this.destination(), database: 'app',
      [`${engine}Id`]: await this.database(engine), databaseType: engine,
    })).backupId;
  }

  async certificateId(): Promise<string> {
    return (await this.berth.ok('certificates.create', { name: unique('cert'), ...this.certificate })).certificateId;
  }

  /** A pending account and the token of its invitation. */
  async invitation(): Promise<{ id: string; token: string }> {
    const { id, token } = await this.berth.ok('admin.createUserInvitation', { email: `${unique('invited')}@berth.test` });
    return { id, token };
  }

  /** An account of role user that joined through an invitation. */
  async accountId(): Promise<string> {
    const { id, token } = await this.invitation();
    await this.berth.ok('auth.createUser', { id, token, password: 'password-123' });
    return id;
  }

  /** A value for an id field of `operation`, naming a record that exists. */
  async idFor(field: string, operation: string): Promise<string> {
    const engine = (ENGINES as readonly string[]).find((name) => field === `${name}Id`) as Engine | undefined;
    if (engine) return this.database(engine);
    switch (field) {
      case 'projectId': return this.project();
      case 'applicationId': return this.application();
      case 'composeId': return (await this.berth.ok('compose.create', { name: unique('compose'), projectId: await this.project() })).composeId;
      case 'destinationId': return this.destination();
      case 'backupId': return this.backup(engineOfOperation(operation));
      case 'registryId': return (await this.berth.ok('registry.create', {
        registryName: unique('registry'), username: 'u', password: 'p', registryUrl: 'registry.example.com', registryType: 'cloud', imagePrefix: null,
      })).registryId;
      case 'portId': return (await this.berth.ok('port.create', { publishedPort: freshPort(), targetPort: freshPort(), applicationId: await this.application() })).portId;
      case 'redirectId': return (await this.berth.ok('redirects.create', {
        regex: '^/old', replacement: '/new', permanent: true, applicationId: await this.application(),
      })).redirectId;
      case 'securityId': return (await this.berth.ok('security.create', {
        applicationId: await this.application(), username: 'guard', password: 'secret',
      })).securityId;
      case 'certificateId': return this.certificateId();
      case 'subscriptionId': return (await this.berth.ok('notification.create', { url: 'http://127.0.0.1:9/hook', eventTypes: ['CertificateFolderLeft'] })).subscriptionId;
      case 'deploymentId': return (await this.berth.ok('application.deploy', { applicationId: await this.application() })).deploymentId;
      case 'id': return operation === 'compose.deployTemplate' ? 'whoami' : this.accountId();
      case 'userId': case 'authId': return this.accountId();
      default: return 'unknown-id';
    }
  }

  /** The appName of the service `input` names by id, for the operations that name it twice (reload). */
  async appNameOf(operation: string, input: Record<string, unknown>): Promise<string> {
    const group = operation.split('.')[0]!;
    const idField = group === 'application' ? 'applicationId' : `${group}Id`;
    return (await this.berth.ok(`${group}.one`, { [idField]: input[idField] })).appName;
  }

  /** Values for the fields whose validity is more than their schema. */
  valueFor(field: string): unknown {
    switch (field) {
      case 'email': return `${unique('someone')}@berth.test`;
      case 'password': return 'password-123';
      case 'schedule': return '0 3 * * *';
      case 'regex': return '^/old';
      case 'proxyConfig': return 'http:\n  routers:\n    contract-router:\n      rule: Host(`contract.example`)\n      service: contract-service\n';
      // Nothing listens there: a login is refused at once, with no name to look up (this machine's
      // resolver now and then answers only after 5 s).
      case 'registryUrl': return '127.0.0.1:1';
      case 'certificateData': return this.certificate.certificateData;
      case 'privateKey': return this.certificate.privateKey;
      // Host ports are one namespace across every service, and an application publishes a container
      // port once: each call takes a fresh one.
      case 'publishedPort': case 'externalPort': case 'targetPort': return freshPort();
      case 'pin': return '123456';
      // A webhook subscription: nothing listens there (its deliveries stay pending in the background); a real event type, as an unknown one is refused.
      case 'url': return 'http://127.0.0.1:9/hook';
      case 'eventTypes': return ['CertificateFolderLeft'];
      case 'databaseType': return 'dbgamma';
      case 'buildType': return 'containerfile';
      case 'databasePassword': case 'databaseRootPassword': return '';
      default: return undefined;
    }
  }
}

/** A fresh Berth and the fixtures that make records in it, for a suite that walks the operations. */
export async function startBerthWithFixtures(config: Partial<Config> = {}): Promise<{ berth: TestBerth; fixtures: Fixtures }> {
  const berth = await startBerth({ config });
  return { berth, fixtures: new Fixtures(berth) };
}
