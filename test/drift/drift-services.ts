// The services the engine watch tests deploy for real, and the operator's hand on the engine
// (`docker service scale/rm`), behind Berth's back.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { streamName } from '@berth/shared/events/event';
import type { TestBerth } from '../support/berth.ts';
import { TEST_IMAGE, eventually, uniqueName } from '../support/engine.ts';
import { DATABASE_IMAGE, removeService } from '../support/database-services.ts';
import { removeStacks } from '../support/stacks.ts';
import { ended } from '../support/deployments.ts';

export const PREFIX = 'berth-test-drift';

/** Two services of the test image, no host port: a stack of several engine services. */
export const PAIR = `services:
  web:
    image: ${TEST_IMAGE}
  side:
    image: ${TEST_IMAGE}
`;

const run = promisify(execFile);
/** The operator's CLI, as a user would type it. */
export const operator = (...args: string[]) => run('docker', ['service', ...args], { timeout: 60_000 });

/** Removes what the tests deployed: services, stacks, and the tags the deployments gave images (`berth/<appName>:deploy-…`). */
export async function removeDeployed(names: readonly string[], stackNames: readonly string[]): Promise<void> {
  for (const name of names) await removeService(name);
  await removeStacks(stackNames);
  for (const name of names) {
    // By tag, never by id: a container source's tags name the test image itself, which must stay.
    const { stdout } = await run('docker', ['images', '--format', '{{.Repository}}:{{.Tag}}', '--filter', `reference=berth/${name}`]);
    const tags = stdout.split('\n').filter(Boolean);
    if (tags.length > 0) await run('docker', ['rmi', ...tags]).catch(() => {});
  }
}

export type Kind = 'application' | 'dbepsilon' | 'compose';

export interface Deployed {
  readonly kind: Kind;
  readonly id: string;
  readonly idField: string;
  readonly appName: string;
  /** The engine service the operator acts on (a stack's `web`). */
  readonly engineName: string;
}

const statusFieldOf = (kind: Kind) => (kind === 'compose' ? 'composeStatus' : 'applicationStatus');

/** Deploys the service and waits for its deployment's end and its status `done`. */
export async function deployed(berth: TestBerth, { kind, id, idField }: Pick<Deployed, 'kind' | 'id' | 'idField'>): Promise<void> {
  const queued = await berth.ok(`${kind}.deploy`, { [idField]: id });
  if (queued.deploymentId) {
    const deployment = await ended(berth, queued.deploymentId);
    if (deployment.status !== 'done') throw new Error(`the deployment of ${kind} ${id} ended ${deployment.status}: ${deployment.reason}`);
  }
  await statusIs(berth, { kind, id, idField }, 'done');
}

/** A service of `kind`, deployed (status `done`), in `projectId`; its appName is pushed to `names` for the clean-up. */
export async function deployedService(berth: TestBerth, kind: Kind, projectId: string, names: string[]): Promise<Deployed> {
  const asked = uniqueName(PREFIX);
  // Berth adds a suffix of its own to the appName asked for.
  const named = (created: { appName: string }) => { names.push(created.appName); return created.appName; };
  if (kind === 'application') {
    const created = await berth.ok('application.create', { name: asked, appName: asked, projectId });
    const { applicationId } = created;
    const appName = named(created);
    await berth.ok('application.saveContainerProvider', { applicationId, containerImage: TEST_IMAGE });
    await deployed(berth, { kind, id: applicationId, idField: 'applicationId' });
    return { kind, id: applicationId, idField: 'applicationId', appName, engineName: appName };
  }
  if (kind === 'dbepsilon') {
    const created = await berth.ok('dbepsilon.create', {
      name: asked, appName: asked, projectId, containerImage: DATABASE_IMAGE.dbepsilon, databasePassword: 'Drift-Pass-42',
    });
    const { dbepsilonId } = created;
    const appName = named(created);
    await deployed(berth, { kind, id: dbepsilonId, idField: 'dbepsilonId' });
    return { kind, id: dbepsilonId, idField: 'dbepsilonId', appName, engineName: appName };
  }
  const created = await berth.ok('compose.create', { name: asked, appName: asked, projectId, composeType: 'stack' });
  const { composeId } = created;
  const appName = named(created);
  await berth.ok('compose.update', { composeId, composeFile: PAIR });
  await deployed(berth, { kind, id: composeId, idField: 'composeId' });
  return { kind, id: composeId, idField: 'composeId', appName, engineName: `${appName}_web` };
}

/** The status `.one` answers. */
export const statusOf = async (berth: TestBerth, service: Pick<Deployed, 'kind' | 'id' | 'idField'>): Promise<string> =>
  (await berth.ok(`${service.kind}.one`, { [service.idField]: service.id }))[statusFieldOf(service.kind)];

/** The status the project's entry in `project.all` shows. */
export async function listedStatusOf(berth: TestBerth, service: Pick<Deployed, 'kind' | 'id' | 'idField'>): Promise<string | undefined> {
  const key = service.kind === 'application' ? 'applications' : service.kind;
  for (const project of await berth.ok('project.all')) {
    const found = (project[key] ?? []).find((entry: Record<string, unknown>) => entry[service.idField] === service.id);
    if (found) return found[statusFieldOf(service.kind)];
  }
  return undefined;
}

/** Waits until `.one` and `project.all` both show `status`. */
export const statusIs = (berth: TestBerth, service: Pick<Deployed, 'kind' | 'id' | 'idField'>, status: string, timeoutMs = 20_000) =>
  eventually(`${service.kind} ${service.id} to show ${status}`, async () =>
    (await statusOf(berth, service)) === status && (await listedStatusOf(berth, service)) === status, timeoutMs);

/** The types of the engine-change events in the service's stream. */
export async function engineChanges(berth: TestBerth, service: Pick<Deployed, 'kind' | 'id'>): Promise<string[]> {
  const { events } = await berth.berth.infrastructure.eventStore.readStream(streamName(service.kind, service.id));
  return events.filter((event) => event.type.endsWith('EngineChanged')).map((event) => `${event.type}:${(event.data as { seen: string }).seen}`);
}
