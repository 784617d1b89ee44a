// A populated Berth: several projects, each with an application and its children, a compose
// service, every kind of database, a backup; and the instance-wide destination, certificate and registry. Built and read
// through any client that can call an operation and expect 200 (in-process or over HTTP).
import { ENGINES } from '@berth/shared/contract/databases';
import { selfSignedCertificate } from '../support/certificate.ts';
import { databaseCredentials } from '../support/databases.ts';

export type Ok = <T = any>(operation: string, input?: Record<string, unknown>) => Promise<T>;

/** A request whose answer a user reads: operation and input. */
export type Read = readonly [operation: string, input: Record<string, unknown>];

/** Creates the world and answers every read that shows it. */
export async function buildWorld(ok: Ok, options: { projects?: number } = {}): Promise<Read[]> {
  const reads: Read[] = [['project.all', {}], ['auth.get', {}]];
  const { destinationId } = await ok('destination.create', {
    name: 'storage', accessKey: 'key', bucket: 'bucket', region: 'region', endpoint: 'https://s3.example.test', secretAccessKey: 'secret',
  });
  reads.push(['destination.one', { destinationId }], ['destination.all', {}]);
  const { registryId } = await ok('registry.create', {
    registryName: 'hub', username: 'user', password: 'registry-pw', registryUrl: 'registry.example.test', registryType: 'cloud', imagePrefix: 'team',
  });
  reads.push(['registry.one', { registryId }], ['registry.all', {}]);
  const { certificateId } = await ok('certificates.create', {
    name: 'tls', certificatePath: 'certificates/world', ...selfSignedCertificate('shop.example.test', { altNames: ['shop.example.test'] }),
  });
  reads.push(['certificates.one', { certificateId }], ['certificates.all', {}]);

  for (let p = 0; p < (options.projects ?? 3); p++) {
    const { projectId } = await ok('project.create', { name: `project ${p}`, description: p % 2 ? null : `number ${p}` });
    reads.push(['project.one', { projectId }]);
    if (p === 1) await ok('project.update', { projectId, name: `project ${p} renamed` });
    const { applicationId } = await ok('application.create', { name: `app ${p}`, projectId });
    await ok('application.update', { applicationId, description: `the app of project ${p}`, env: `P=${p}` });
    reads.push(['application.one', { applicationId }]);
    // Nothing runs the queue here: the deployment stays queued, as a record to read.
    await ok('application.saveContainerProvider', { applicationId, containerImage: `shop:${p}` });
    const { deploymentId } = await ok('application.deploy', { applicationId });
    reads.push(['deployment.one', { deploymentId }], ['deployment.all', { applicationId }]);
    const { portId } = await ok('port.create', { publishedPort: 8000 + p, targetPort: 80, applicationId });
    const { redirectId } = await ok('redirects.create', { regex: `^/${p}/(.*)`, replacement: '/$1', permanent: p % 2 === 0, applicationId });
    const { securityId } = await ok('security.create', { applicationId, username: `user${p}`, password: `pw-${p}` });
    reads.push(['port.one', { portId }], ['redirects.one', { redirectId }], ['security.one', { securityId }]);
    const { composeId } = await ok('compose.create', { name: `stack ${p}`, projectId, composeType: p % 2 ? 'stack' : 'container-compose' });
    reads.push(['compose.one', { composeId }]);
    for (const engine of ENGINES) {
      const created = await ok(`${engine}.create`, { name: `${engine} ${p}`, appName: engine, projectId, ...databaseCredentials(engine, { secret: 'world' }) });
      const id = { [`${engine}Id`]: created[`${engine}Id`] };
      reads.push([`${engine}.one`, id]);
      if (engine === 'dbgamma') {
        const { backupId } = await ok('backup.create', {
          schedule: '0 2 * * *', enabled: true, prefix: `p${p}`, destinationId, database: 'app', dbgammaId: id.dbgammaId, databaseType: 'dbgamma',
        });
        reads.push(['backup.one', { backupId }]);
      }
    }
  }
  return reads;
}

/** Every answer of `reads`, keyed by the request. */
export async function readWorld(ok: Ok, reads: readonly Read[]): Promise<Record<string, unknown>> {
  const answers: Record<string, unknown> = {};
  for (const [operation, input] of reads) answers[`${operation} ${JSON.stringify(input)}`] = await ok(operation, input);
  return answers;
}
