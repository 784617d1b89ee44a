// Live views of the container engine and the swarm: asked of the engine at each call, never
// stored. An engine refusal answers in the spec's error shape, naming the field it concerns.
import type { contract } from '@berth/shared/contract/index';
import { badRequest, conflict, notFound } from '@berth/shared/errors';
import { NAMESPACE_LABEL } from '@berth/shared/domain/compose/stack-spec';
import { PROJECT_LABEL, composeProjectName } from '@berth/shared/domain/compose/project-name';
import { EngineError, SERVICE_LABEL, type ContainerStats, type ContainerSummary } from '@berth/shared/ports/container-engine';
import type { Context } from '../context.ts';
import { isContainerOfService, serviceIdOf } from './container-owner.ts';
import type { GroupHandlers } from './kit.ts';

/** The engine's refusal as an answer: unknown is NOT_FOUND naming `field`, the rest BAD_REQUEST with its reason. */
export async function askEngine<T>(ask: () => Promise<T>, field: string, what: string): Promise<T> {
  try {
    return await ask();
  } catch (error) {
    if (!(error instanceof EngineError)) throw error;
    if (error.status === 404) throw notFound(field, what);
    throw badRequest(field, `was refused by the container engine: ${error.message}`);
  }
}

const engineOf = (ctx: Context) => ctx.infra.engine;

// Who a container runs for, as the engine and the compose tool label it (SERVICE_LABEL, PROJECT_LABEL):
// a swarm service (an application's, a database's, a stack's `<stack>_<service>`), a stack, a compose project.

/**
 * An application's own container is named after it; its swarm tasks' are `<appName>.<slot>.<taskid>`.
 * A compose service's are named after its services: a stack's tasks `<appName>_<service>.<slot>.<taskid>`,
 * a compose project's `<appName>_<service>_<n>` or `<appName>-<service>-<n>`. Those are the ones the
 * stack or project `appName` labels: `X-2-web-1` of the project `X-2` is not `X`'s.
 */
const isContainerOf = (appName: string) => {
  const project = composeProjectName(appName);
  return ({ name, labels }: ContainerSummary) => name === appName || name.startsWith(`${appName}.`)
    || (labels?.[NAMESPACE_LABEL] === appName && name.startsWith(`${appName}_`))
    || (labels?.[PROJECT_LABEL] === project && (name.startsWith(`${project}_`) || name.startsWith(`${project}-`)));
};

/** Of `found`, the containers Berth made for its service `appName`: none when no service of Berth's has the name. */
async function ownedBy(ctx: Context, appName: string, found: readonly ContainerSummary[]): Promise<ContainerSummary[]> {
  const serviceId = await serviceIdOf(ctx, appName);
  return serviceId === null ? [] : found.filter((container) => isContainerOfService(ctx, container.labels, appName, serviceId));
}

/** The containers of the swarm service, the stack or the compose project `appName`, each once: Berth's for that service only. */
async function labelledFor(ctx: Context, appName: string): Promise<ContainerSummary[]> {
  // The engine ANDs the labels of one filter: one list for each label.
  const labels = [`${SERVICE_LABEL}=${appName}`, `${NAMESPACE_LABEL}=${appName}`, `${PROJECT_LABEL}=${composeProjectName(appName)}`];
  const lists = await Promise.all(labels.map((label) =>
    askEngine(() => engineOf(ctx).listContainers({ label }), 'appName', 'Container')));
  return ownedBy(ctx, appName, [...new Map(lists.flat().map((found) => [found.containerId, found])).values()]);
}

/** The join command a node runs to enter this swarm. */
async function joinCommand(ctx: Context, role: 'worker' | 'manager') {
  const join = await askEngine(() => engineOf(ctx).joinInfo(), 'cluster', 'Swarm');
  const token = role === 'worker' ? join.workerToken : join.managerToken;
  return { command: `docker swarm join --token ${token} ${join.managerAddress}`, token, managerAddress: join.managerAddress };
}

export const cluster: GroupHandlers<typeof contract.cluster> = {
  getNodes: async (_input, ctx) => askEngine(() => engineOf(ctx).listNodes(), 'cluster', 'Swarm'),
  addWorker: async (_input, ctx) => joinCommand(ctx, 'worker'),
  addManager: async (_input, ctx) => joinCommand(ctx, 'manager'),
  removeWorker: async (input, ctx) => {
    const nodes = await askEngine(() => engineOf(ctx).listNodes(), 'nodeId', 'Node');
    const node = nodes.find((candidate) => candidate.id === input.nodeId);
    if (!node) throw notFound('nodeId', 'Node');
    if (node.role === 'manager') throw conflict('names a manager node: only workers are removed here', 'nodeId');
    // Drained first, so its tasks move to the other nodes before it leaves.
    await askEngine(() => engineOf(ctx).drainNode(node.id), 'nodeId', 'Node');
    await askEngine(() => engineOf(ctx).removeNode(node.id), 'nodeId', 'Node');
    return true;
  },
};

/**
 * The runtime name of the service a container runs for: its stack's, else its compose project's,
 * else its swarm service's. Only the first that applies: a stack's container also carries its
 * swarm service's name (`<stack>_<service>`), which says nothing of who owns it.
 */
const runtimeNameOf = (labels: Record<string, string> | null | undefined): string | undefined =>
  [labels?.[NAMESPACE_LABEL], labels?.[PROJECT_LABEL], labels?.[SERVICE_LABEL]]
    .find((name): name is string => typeof name === 'string' && name.length > 0);

/** Whether the caller may see the service a container runs for: an admin any, a user its own services'. */
async function seesContainerOf(ctx: Context, labels: Record<string, string> | null | undefined): Promise<boolean> {
  if (ctx.seesAll) return true;
  const name = runtimeNameOf(labels);
  if (name === undefined) return false;
  // A container of another's object that carries the name is not the service's to show.
  const serviceId = await serviceIdOf(ctx, name);
  return serviceId !== null && ctx.canSeeService(serviceId) && isContainerOfService(ctx, labels, name, serviceId);
}

type InspectedLabels = { Config?: { Labels?: Record<string, string> | null } };

export const container: GroupHandlers<typeof contract.container> = {
  getContainers: async (_input, ctx) => {
    const found = await askEngine(() => engineOf(ctx).listContainers(), 'containerId', 'Container');
    if (ctx.seesAll) return found;
    // A user's list holds its own services' containers only: the others are other tenants' or not Berth's.
    const shown = await Promise.all(found.map((candidate) => seesContainerOf(ctx, candidate.labels)));
    return found.filter((_candidate, index) => shown[index]);
  },
  getConfig: async (input, ctx) => {
    const config = await askEngine(() => engineOf(ctx).inspectContainer(input.containerId), 'containerId', 'Container');
    // A user's container is one of its own services', as in its list: any other is unknown to it.
    if (!config || !(await seesContainerOf(ctx, (config as InspectedLabels).Config?.Labels))) throw notFound('containerId', 'Container');
    return config;
  },
  getContainersByAppNameMatch: async (input, ctx) => ownedBy(ctx, input.appName,
    (await askEngine(() => engineOf(ctx).listContainers({ name: input.appName }), 'appName', 'Container')).filter(isContainerOf(input.appName))),
  getContainersByAppLabel: async (input, ctx) => labelledFor(ctx, input.appName),
};

const total = (samples: readonly ContainerStats[], key: keyof ContainerStats) =>
  samples.reduce((sum, sample) => sum + sample[key], 0);

/** CPU, memory, network and block I/O of a service's running containers, summed and one by one. */
export async function appMonitoring(appName: string, ctx: Context) {
  const engine = engineOf(ctx);
  // Whose containers these are is decided as getContainersByAppLabel decides it: a stack's and a compose project's too.
  const listed = await labelledFor(ctx, appName);
  // A service of Berth's not running now measures zero; a name nothing carries is a mistake to say.
  if (listed.length === 0 && (await serviceIdOf(ctx, appName)) === null) {
    throw notFound('appName', appName === '' ? 'service: it is empty' : `Service ${appName}`);
  }
  const running = listed.filter((candidate) => candidate.state === 'running');
  const containers = await Promise.all(running.map(async (candidate) => ({
    containerId: candidate.containerId, name: candidate.name,
    ...(await askEngine(() => engine.containerStats(candidate.containerId), 'appName', 'Container')),
  })));
  return {
    appName,
    cpuPercent: total(containers, 'cpuPercent'),
    memory: { usedBytes: total(containers, 'memoryUsedBytes'), limitBytes: total(containers, 'memoryLimitBytes') },
    network: { rxBytes: total(containers, 'networkRxBytes'), txBytes: total(containers, 'networkTxBytes') },
    blockIO: { readBytes: total(containers, 'blockReadBytes'), writeBytes: total(containers, 'blockWriteBytes') },
    containers,
  };
}
