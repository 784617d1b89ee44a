// The orchestrator's service spec for an application: pure, from the record, its image, its
// environment and its port records. The *Orch fields are already in the orchestrator's shape.
import type { Application } from '@berth/shared/domain/application/record';
import type { Port } from '@berth/shared/domain/port/port';
import type { PortBinding, Resources, ServiceSpec } from '@berth/shared/ports/container-engine';
import { APPLICATION_MARK, withoutReservedLabels, type OwnerMark } from '@berth/shared/domain/ownership';

export interface SpecInputs {
  readonly image: string;
  readonly env: readonly string[];
  readonly ports: readonly Pick<Port, 'publishedPort' | 'targetPort' | 'protocol'>[];
  readonly publishMode: 'host' | 'ingress';
  /** The network the proxy reaches the service on, by its appName (BERTH_PROXY_NETWORK). */
  readonly proxyNetwork: string;
}

/** The label that says Berth made a service or container for this application. */
export const appMark = (app: Pick<Application, 'applicationId'>): OwnerMark => ({ label: APPLICATION_MARK, value: app.applicationId });

/** Labels Berth puts on every service it runs, to find an application's services and containers. */
export const appLabels = (app: Pick<Application, 'appName' | 'applicationId'>) => ({
  'berth.appName': app.appName, [APPLICATION_MARK]: app.applicationId,
});

/** Memory in bytes and CPU in nano-CPUs, the orchestrator's units, as the reference stores them. */
function resources(memory: number | null, cpu: number | null): Resources | undefined {
  if (memory === null && cpu === null) return undefined;
  return {
    ...(memory !== null && { MemoryBytes: Math.round(memory) }),
    ...(cpu !== null && { NanoCPUs: Math.round(cpu) }),
  };
}

/** How many tasks a replicated application runs: its mode's count when it gives one, else `replicas` (deploy and start alike). */
export const replicasOf = (app: Pick<Application, 'modeOrch' | 'replicas'>): number => app.modeOrch?.Replicated?.Replicas ?? app.replicas;

function mode(app: Application): object {
  const given = app.modeOrch;
  if (!given || (!given.Global && !given.ReplicatedJob && !given.GlobalJob)) return { Replicated: { Replicas: replicasOf(app) } };
  return given;
}

const defined = <T extends object>(value: T) =>
  Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined && item !== null)) as T;

type NetworkAttachment = NonNullable<Application['networkOrch']>[number];

/**
 * The user's networks, then the proxy's under the appName, which the proxy file's URL names. The
 * engine takes a network once per service: a user's entry naming the proxy's network is folded into
 * Berth's, its aliases and options kept.
 */
export function networksOf(app: Pick<Application, 'appName' | 'networkOrch'>, proxyNetwork: string): NetworkAttachment[] {
  const given = app.networkOrch ?? [];
  const onProxy = given.filter((network) => network.Target === proxyNetwork);
  const driverOpts = Object.assign({}, ...onProxy.map((network) => network.DriverOpts ?? {})) as Record<string, string>;
  return [...given.filter((network) => network.Target !== proxyNetwork), {
    Target: proxyNetwork,
    Aliases: [...new Set([app.appName, ...onProxy.flatMap((network) => network.Aliases ?? [])])],
    ...(Object.keys(driverOpts).length > 0 && { DriverOpts: driverOpts }),
  }];
}

export function serviceSpecOf(app: Application, inputs: SpecInputs): ServiceSpec {
  const limits = resources(app.memoryLimit, app.cpuLimit);
  const reservations = resources(app.memoryReservation, app.cpuReservation);
  const ports: PortBinding[] = inputs.ports.map((port) => ({
    Protocol: port.protocol, TargetPort: port.targetPort, PublishedPort: port.publishedPort, PublishMode: inputs.publishMode,
  }));
  return defined({
    Name: app.appName,
    Labels: { ...withoutReservedLabels(app.labelsOrch ?? {}), ...appLabels(app) },
    TaskTemplate: defined({
      ContainerSpec: defined({
        Image: inputs.image,
        Env: [...inputs.env],
        // The command runs in a shell, as the user typed it.
        ...(app.command && { Command: ['/bin/sh'], Args: ['-c', app.command] }),
        Labels: appLabels(app),
        Healthcheck: app.healthCheckOrch ?? undefined,
      }),
      Resources: limits || reservations ? defined({ Limits: limits, Reservations: reservations }) : undefined,
      RestartPolicy: app.restartPolicyOrch ?? undefined,
      Placement: app.placementOrch ?? undefined,
      Networks: networksOf(app, inputs.proxyNetwork),
    }),
    Mode: mode(app),
    UpdateConfig: app.updateConfigOrch ?? undefined,
    RollbackConfig: app.rollbackConfigOrch ?? undefined,
    // DNS round robin where the ports are published on the host: the name answers the tasks' own
    // addresses, so a proxy reaches them without the kernel's IPVS, which a virtual IP needs (this
    // test machine has none). The routing mesh (ingress) needs a virtual IP.
    EndpointSpec: { Mode: inputs.publishMode === 'host' ? 'dnsrr' : 'vip', Ports: ports },
  });
}

type Modes = { Replicated?: { Replicas?: number }; Global?: object; ReplicatedJob?: { MaxConcurrent?: number; TotalCompletions?: number }; GlobalJob?: object };
const modesOf = (spec: ServiceSpec): Modes => (spec.Mode ?? {}) as Modes;

/** The kind of the service's mode; the engine cannot change it in place (a service of another kind is recreated). */
export const modeKind = (spec: ServiceSpec): keyof Modes => (Object.keys(modesOf(spec))[0] as keyof Modes | undefined) ?? 'Replicated';

/** Whether the service runs its tasks to completion (a job) rather than keeps them running. */
export const isJob = (spec: ServiceSpec): boolean => {
  const mode = modesOf(spec);
  return Boolean(mode.ReplicatedJob ?? mode.GlobalJob);
};

/** Whether the service has a scale: the others (global, jobs) have none to set to 0, so a stop removes them. */
export const isScalable = (spec: ServiceSpec): boolean => modeKind(spec) === 'Replicated';

/**
 * A reload of a service scaled to 0 (stopped, whatever its record says: a status set by hand) has
 * no task to restart: refused in the words the record's idle status is refused with.
 */
export function mustRunTasks(spec: ServiceSpec): void {
  if (expectedTasks(spec) === 0) throw new Error(`${spec.Name} is stopped: it has no running tasks to reload; start it`);
}

/**
 * How many tasks of a deploy must run (a job's: complete) before it counts as done. A global
 * service or job: at least one (the watch waits for every task the engine made, one per node).
 */
export function expectedTasks(spec: ServiceSpec): number {
  const mode = modesOf(spec);
  if (mode.Replicated) return mode.Replicated.Replicas ?? 1;
  // The engine's default for TotalCompletions is MaxConcurrent, whose own is 1.
  if (mode.ReplicatedJob) return mode.ReplicatedJob.TotalCompletions ?? mode.ReplicatedJob.MaxConcurrent ?? 1;
  return 1;
}
