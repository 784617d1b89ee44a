// One compose service as an orchestrator service spec: image, command, environment (its env files
// first), mounts, secrets and configs, networks (with its
// short name as alias), ports, health check, container options and the `deploy` settings.
import { badRequest } from '../../errors.ts';
import { withoutReservedLabels } from '../ownership.ts';
import { configReferences, fileContent, secretReferences, type ReadComposeFile } from './stack-objects.ts';
import { containerOptions, logDriver } from './stack-options.ts';
import { portEntries } from './ports.ts';
import type { RolloutConfig, StackMount, StackPort, StackServiceSpec, VolumeOptions } from './stack-spec.ts';
import { asMap, bytes, envMap, isUnjudged, labelMap, list, nanoseconds, pairs, words, type Map } from './values.ts';

export interface ServiceContext {
  readonly namespace: string;
  readonly labels: Record<string, string>;
  /** Network name in the file → its name on the engine. */
  readonly networkNames: ReadonlyMap<string, string>;
  /** Volume name in the file → its name on the engine, and how the engine makes it on first use. */
  readonly volumes: ReadonlyMap<string, { readonly name: string; readonly options: VolumeOptions }>;
  /** How a port is published when the file does not say (`mode`): ingress, as the stack tool does, unless configured. */
  readonly publishMode: 'ingress' | 'host';
  readonly read: ReadComposeFile | null;
  /** Secret and config names in the file → their names on the engine. */
  readonly secretNames: ReadonlyMap<string, string>;
  readonly configNames: ReadonlyMap<string, string>;
}

/**
 * A bind's host path, absolute. A relative one (`./data`) would point into the checkout of the
 * service's repository, which every deploy replaces: its data would go with it.
 */
function bindSource(source: string, where: string): string {
  if (source.startsWith('/') || isUnjudged(source)) return source;
  throw badRequest('composeFile', `${where}: the bind "${source}" is not an absolute path; a relative one would point into the checkout of the repository, which every deploy replaces: use a named volume for data, a config for a file of the repository, or an absolute host path`);
}

/** A named volume's mount source and options: its driver, driver options and labels, as the file declares it. */
function namedVolume(source: string, context: ServiceContext, where: string, noCopy: boolean): Pick<StackMount, 'Source' | 'VolumeOptions'> {
  if (isUnjudged(source)) return { Source: source };
  const volume = context.volumes.get(source);
  if (!volume) throw badRequest('composeFile', `${where}: volume "${source}" is not declared under volumes`);
  return { Source: volume.name, VolumeOptions: { ...volume.options, ...(noCopy && { NoCopy: true }) } };
}

function mount(entry: unknown, context: ServiceContext, where: string): StackMount {
  if (typeof entry === 'string') {
    const [source = '', target, mode] = entry.split(':');
    if (target === undefined) return { Type: 'volume', Target: source };
    const bind = source.startsWith('/') || source.startsWith('.') || source.startsWith('~');
    const placed = bind ? { Source: bindSource(source, where) } : namedVolume(source, context, where, mode === 'nocopy');
    return { Type: bind ? 'bind' : 'volume', ...placed, Target: target, ReadOnly: mode === 'ro' };
  }
  const long = asMap(entry);
  const type = (long.type ?? 'volume') as StackMount['Type'];
  const source = typeof long.source === 'string' ? long.source : undefined;
  const placed = source === undefined ? {}
    : type === 'volume' ? namedVolume(source, context, where, asMap(long.volume).nocopy === true)
      : { Source: type === 'bind' ? bindSource(source, where) : source };
  return { Type: type, ...placed, Target: String(long.target), ReadOnly: long.read_only === true };
}

/** The environment: the env files' variables, in order, then `environment`'s, each overriding the ones before. */
function environment(body: Map, context: ServiceContext, where: string): string[] {
  const merged = new Map<string, string>();
  const files = typeof body.env_file === 'string' ? [body.env_file] : list(body.env_file);
  for (const entry of files) {
    const long = typeof entry === 'string' ? { path: entry } : asMap(entry);
    const path = String(long.path ?? '');
    const content = long.required === false ? context.read?.(path) ?? null : fileContent(context.read, path, `${where}.env_file`);
    if (content === null) continue;
    for (const [key, value] of Object.entries(envMap(Buffer.from(content).toString('utf8')))) merged.set(key, `${key}=${value}`);
  }
  for (const line of pairs(body.environment)) merged.set(line.split('=')[0]!, line);
  return [...merged.values()];
}

function rollout(value: unknown, where: string): RolloutConfig {
  const config = asMap(value);
  return {
    ...(config.parallelism !== undefined && { Parallelism: Number(config.parallelism) }),
    ...(config.delay !== undefined && { Delay: nanoseconds(config.delay, `${where}.delay`) }),
    ...(config.monitor !== undefined && { Monitor: nanoseconds(config.monitor, `${where}.monitor`) }),
    ...(config.max_failure_ratio !== undefined && { MaxFailureRatio: Number(config.max_failure_ratio) }),
    ...(config.order !== undefined && { Order: config.order === 'start-first' ? 'start-first' : 'stop-first' }),
    ...(config.failure_action !== undefined && { FailureAction: config.failure_action as RolloutConfig['FailureAction'] }),
  };
}

function placement(value: unknown): StackServiceSpec['TaskTemplate']['Placement'] {
  const given = asMap(value);
  return {
    ...(given.constraints !== undefined && { Constraints: list(given.constraints).map(String) }),
    ...(given.preferences !== undefined && {
      Preferences: list(given.preferences).map((preference) => ({ Spread: { SpreadDescriptor: String(asMap(preference).spread) } })),
    }),
    ...(given.max_replicas_per_node !== undefined && { MaxReplicas: Number(given.max_replicas_per_node) }),
  };
}

/** A `ports` entry as the orchestrator publishes it: without a `mode` of its own, as the stack is configured. */
const ports = (entry: unknown, context: ServiceContext, where: string): StackPort[] =>
  portEntries(entry, `${where}.ports`).map((port) => ({
    Protocol: port.protocol, TargetPort: port.target, ...(port.published !== undefined && { PublishedPort: port.published }),
    PublishMode: port.mode ?? context.publishMode,
  }));

/** A whole number ≥ 0, as written or as interpolation left it (`${NREP}` unset is "", not 0). */
function replicas(value: unknown, where: string): number {
  if (isUnjudged(value)) return 1;
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  if (!/^\d+$/.test(text)) throw badRequest('composeFile', `${where}.deploy.replicas must be a whole number of 0 or more, not ${JSON.stringify(value)}`);
  return Number(text);
}

/**
 * `deploy.mode` and `replicas` as the engine's service mode. A job (`replicated-job`,
 * `global-job`) is refused: Berth's stack deploy waits for running tasks and stop scales to 0,
 * neither of which a job has; an unknown mode is refused rather than run as `replicated`.
 */
function serviceMode(deploy: Map, where: string): StackServiceSpec['Mode'] {
  const mode = isUnjudged(deploy.mode) ? 'replicated' : deploy.mode ?? 'replicated';
  if (mode === 'replicated') return { Replicated: { Replicas: deploy.replicas === undefined ? 1 : replicas(deploy.replicas, where) } };
  if (mode === 'global') {
    if (deploy.replicas !== undefined) throw badRequest('composeFile', `${where}.deploy.replicas cannot be used with deploy.mode global`);
    return { Global: {} };
  }
  if (mode === 'replicated-job' || mode === 'global-job') {
    throw badRequest('composeFile', `${where}.deploy.mode ${mode} is not supported in a stack: a job's tasks end, which a stack deploy counts as failed; run it as a container-compose service, or as replicated/global`);
  }
  throw badRequest('composeFile', `${where}.deploy.mode must be replicated or global, not ${JSON.stringify(mode)}`);
}

const CONDITIONS = { none: 'none', 'on-failure': 'on-failure', any: 'any' } as const;

/** The engine's longest service name. */
const SERVICE_NAME_MAX = 63;

/** `<appName>_<service>`, refused before anything reaches the engine when it is longer than the engine takes. */
function stackServiceName(namespace: string, name: string, where: string): string {
  const full = `${namespace}_${name}`;
  if (full.length > SERVICE_NAME_MAX) {
    throw badRequest('composeFile', `${where}: the stack service's name ${full} is ${full.length} characters, more than the engine's ${SERVICE_NAME_MAX}: shorten the appName or the service's name`);
  }
  return full;
}

export function serviceSpec(name: string, raw: unknown, context: ServiceContext): StackServiceSpec {
  const body = asMap(raw);
  const where = `services.${name}`;
  const fullName = stackServiceName(context.namespace, name, where);
  if (typeof body.image !== 'string' || body.image === '') throw badRequest('composeFile', `${where}: needs an image (a stack does not build)`);
  const deploy = asMap(body.deploy);
  const limits = asMap(asMap(deploy.resources).limits);
  const reservations = asMap(asMap(deploy.resources).reservations);
  const resources = (part: Map) => ({
    ...(part.cpus !== undefined && { NanoCPUs: Math.round(Number(part.cpus) * 1e9) }),
    ...(part.memory !== undefined && { MemoryBytes: bytes(part.memory, `${where}.deploy.resources`) }),
  });
  const restart = asMap(deploy.restart_policy);
  const health = asMap(body.healthcheck);
  const networks = Array.isArray(body.networks) ? body.networks.map(String) : Object.keys(asMap(body.networks));
  const labels = { ...withoutReservedLabels(labelMap(deploy.labels)), ...context.labels };
  const published = list(body.ports).flatMap((entry) => ports(entry, context, where));
  return {
    Name: fullName,
    Labels: labels,
    TaskTemplate: {
      ContainerSpec: {
        Image: body.image,
        Labels: { ...withoutReservedLabels(labelMap(body.labels)), ...context.labels },
        ...(body.entrypoint !== undefined && { Command: words(body.entrypoint) }),
        ...(body.command !== undefined && { Args: words(body.command) }),
        Env: environment(body, context, where),
        Mounts: list(body.volumes).map((entry) => mount(entry, context, where)),
        ...(body.secrets !== undefined && { Secrets: secretReferences(body.secrets, where, context.secretNames) }),
        ...(body.configs !== undefined && { Configs: configReferences(body.configs, where, context.configNames) }),
        ...containerOptions(body, where),
        ...(typeof body.hostname === 'string' && { Hostname: body.hostname }),
        ...(typeof body.user === 'string' && { User: body.user }),
        ...(typeof body.working_dir === 'string' && { Dir: body.working_dir }),
        ...(body.stop_grace_period !== undefined && { StopGracePeriod: nanoseconds(body.stop_grace_period, `${where}.stop_grace_period`) }),
        ...(body.healthcheck !== undefined && !health.disable && {
          Healthcheck: {
            Test: typeof health.test === 'string' ? ['CMD-SHELL', health.test] : list(health.test).map(String),
            ...(health.interval !== undefined && { Interval: nanoseconds(health.interval, `${where}.healthcheck.interval`) }),
            ...(health.timeout !== undefined && { Timeout: nanoseconds(health.timeout, `${where}.healthcheck.timeout`) }),
            ...(health.retries !== undefined && { Retries: Number(health.retries) }),
            ...(health.start_period !== undefined && { StartPeriod: nanoseconds(health.start_period, `${where}.healthcheck.start_period`) }),
          },
        }),
      },
      Resources: { Limits: resources(limits), Reservations: resources(reservations) },
      ...(logDriver(body) && { LogDriver: logDriver(body) }),
      ...(deploy.restart_policy !== undefined && {
        RestartPolicy: {
          Condition: CONDITIONS[String(restart.condition ?? 'any') as keyof typeof CONDITIONS] ?? 'any',
          ...(restart.delay !== undefined && { Delay: nanoseconds(restart.delay, `${where}.deploy.restart_policy.delay`) }),
          ...(restart.max_attempts !== undefined && { MaxAttempts: Number(restart.max_attempts) }),
          ...(restart.window !== undefined && { Window: nanoseconds(restart.window, `${where}.deploy.restart_policy.window`) }),
        },
      }),
      ...(deploy.placement !== undefined && { Placement: placement(deploy.placement) }),
      Networks: (networks.length > 0 ? networks : ['default']).map((network) => {
        const target = isUnjudged(network) ? network : context.networkNames.get(network);
        if (!target) throw badRequest('composeFile', `${where}: network "${network}" is not declared under networks`);
        return { Target: target, Aliases: [name] };
      }),
    },
    Mode: serviceMode(deploy, where),
    ...(deploy.update_config !== undefined && { UpdateConfig: rollout(deploy.update_config, `${where}.deploy.update_config`) }),
    ...(deploy.rollback_config !== undefined && { RollbackConfig: rollout(deploy.rollback_config, `${where}.deploy.rollback_config`) }),
    // `dnsrr`: the service's name resolves to its tasks' addresses, with no virtual IP in front.
    ...((published.length > 0 || deploy.endpoint_mode !== undefined) && {
      EndpointSpec: { ...(deploy.endpoint_mode !== undefined && { Mode: deploy.endpoint_mode === 'dnsrr' ? 'dnsrr' : 'vip' }), Ports: published },
    }),
  };
}
