// One compose service as an orchestrator service spec: image, command, environment, mounts,
// networks (with its short name as alias), ports, health check and the `deploy` settings.
import { badRequest } from '../../errors.ts';
import type { StackMount, StackPort, StackServiceSpec } from './stack-spec.ts';
import { bytes, nanoseconds, words } from './values.ts';

export interface ServiceContext {
  readonly namespace: string;
  readonly labels: Record<string, string>;
  /** Network name in the file → its name on the engine. */
  readonly networkNames: ReadonlyMap<string, string>;
  readonly volumeNames: ReadonlyMap<string, string>;
  /** How a port is published when the file does not say (`mode`): ingress, as the stack tool does, unless configured. */
  readonly publishMode: 'ingress' | 'host';
}

type Map = Record<string, unknown>;
const asMap = (value: unknown): Map => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Map) : {});
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
/** `KEY: value` or `[KEY=value]` as `KEY=value` lines (the form both `environment` and `labels` take). */
const pairs = (value: unknown): string[] => (Array.isArray(value)
  ? value.map(String) : Object.entries(asMap(value)).map(([key, item]) => `${key}=${item === null ? '' : String(item)}`));
const labelMap = (value: unknown) => Object.fromEntries(pairs(value).map((line) => [line.split('=')[0]!, line.slice(line.indexOf('=') + 1)]));

function mount(entry: unknown, context: ServiceContext, where: string): StackMount {
  if (typeof entry === 'string') {
    const [source = '', target, mode] = entry.split(':');
    if (target === undefined) return { Type: 'volume', Target: source };
    const bind = source.startsWith('/') || source.startsWith('.') || source.startsWith('~');
    const name = bind ? source : context.volumeNames.get(source);
    if (name === undefined) throw badRequest('composeFile', `${where}: volume "${source}" is not declared under volumes`);
    return { Type: bind ? 'bind' : 'volume', Source: name, Target: target, ReadOnly: mode === 'ro', ...(!bind && { VolumeOptions: { Labels: context.labels } }) };
  }
  const long = asMap(entry);
  const type = (long.type ?? 'volume') as StackMount['Type'];
  const source = typeof long.source === 'string' ? long.source : undefined;
  const name = type === 'volume' && source !== undefined ? context.volumeNames.get(source) : source;
  if (type === 'volume' && source !== undefined && name === undefined) throw badRequest('composeFile', `${where}: volume "${source}" is not declared under volumes`);
  return { Type: type, ...(name !== undefined && { Source: name }), Target: String(long.target), ReadOnly: long.read_only === true };
}

function port(entry: unknown, context: ServiceContext): StackPort {
  if (typeof entry === 'object' && entry !== null) {
    const long = asMap(entry);
    return {
      Protocol: long.protocol === 'udp' ? 'udp' : 'tcp', TargetPort: Number(long.target),
      ...(long.published !== undefined && { PublishedPort: Number(long.published) }), PublishMode: long.mode === 'host' || long.mode === 'ingress' ? long.mode : context.publishMode,
    };
  }
  const [mapping = '', protocol] = String(entry).split('/');
  const parts = mapping.split(':');
  const target = Number(parts.at(-1));
  const published = parts.length > 1 ? Number(parts.at(-2)) : undefined;
  if (!Number.isInteger(target) || (published !== undefined && !Number.isInteger(published))) throw badRequest('composeFile', `port "${String(entry)}" is not HOST:CONTAINER`);
  return { Protocol: protocol === 'udp' ? 'udp' : 'tcp', TargetPort: target, ...(published !== undefined && { PublishedPort: published }), PublishMode: context.publishMode };
}

const CONDITIONS = { none: 'none', 'on-failure': 'on-failure', any: 'any' } as const;

export function serviceSpec(name: string, raw: unknown, context: ServiceContext): StackServiceSpec {
  const body = asMap(raw);
  const where = `services.${name}`;
  if (typeof body.image !== 'string' || body.image === '') throw badRequest('composeFile', `${where}: needs an image (a stack does not build)`);
  const deploy = asMap(body.deploy);
  const limits = asMap(asMap(deploy.resources).limits);
  const reservations = asMap(asMap(deploy.resources).reservations);
  const resources = (part: Map) => ({
    ...(part.cpus !== undefined && { NanoCPUs: Math.round(Number(part.cpus) * 1e9) }),
    ...(part.memory !== undefined && { MemoryBytes: bytes(part.memory, `${where}.deploy.resources`) }),
  });
  const restart = asMap(deploy.restart_policy);
  const update = asMap(deploy.update_config);
  const health = asMap(body.healthcheck);
  const networks = Array.isArray(body.networks) ? body.networks.map(String) : Object.keys(asMap(body.networks));
  const labels = { ...labelMap(deploy.labels), ...context.labels };
  const ports = list(body.ports).map((entry) => port(entry, context));
  return {
    Name: `${context.namespace}_${name}`,
    Labels: labels,
    TaskTemplate: {
      ContainerSpec: {
        Image: body.image,
        Labels: { ...labelMap(body.labels), ...context.labels },
        ...(body.entrypoint !== undefined && { Command: words(body.entrypoint) }),
        ...(body.command !== undefined && { Args: words(body.command) }),
        Env: pairs(body.environment),
        Mounts: list(body.volumes).map((entry) => mount(entry, context, where)),
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
      ...(deploy.restart_policy !== undefined && {
        RestartPolicy: {
          Condition: CONDITIONS[String(restart.condition ?? 'any') as keyof typeof CONDITIONS] ?? 'any',
          ...(restart.delay !== undefined && { Delay: nanoseconds(restart.delay, `${where}.deploy.restart_policy.delay`) }),
          ...(restart.max_attempts !== undefined && { MaxAttempts: Number(restart.max_attempts) }),
          ...(restart.window !== undefined && { Window: nanoseconds(restart.window, `${where}.deploy.restart_policy.window`) }),
        },
      }),
      ...(asMap(deploy.placement).constraints !== undefined && { Placement: { Constraints: list(asMap(deploy.placement).constraints).map(String) } }),
      Networks: (networks.length > 0 ? networks : ['default']).map((network) => {
        const target = context.networkNames.get(network);
        if (!target) throw badRequest('composeFile', `${where}: network "${network}" is not declared under networks`);
        return { Target: target, Aliases: [name] };
      }),
    },
    Mode: deploy.mode === 'global' ? { Global: {} } : { Replicated: { Replicas: deploy.replicas === undefined ? 1 : Number(deploy.replicas) } },
    ...(deploy.update_config !== undefined && {
      UpdateConfig: {
        ...(update.parallelism !== undefined && { Parallelism: Number(update.parallelism) }),
        ...(update.delay !== undefined && { Delay: nanoseconds(update.delay, `${where}.deploy.update_config.delay`) }),
        ...(update.order !== undefined && { Order: update.order === 'start-first' ? 'start-first' : 'stop-first' }),
        ...(update.failure_action !== undefined && { FailureAction: update.failure_action as 'pause' | 'continue' | 'rollback' }),
      },
    }),
    // `dnsrr`: the service's name resolves to its tasks' addresses, with no virtual IP in front.
    ...((ports.length > 0 || deploy.endpoint_mode !== undefined) && {
      EndpointSpec: { ...(deploy.endpoint_mode !== undefined && { Mode: deploy.endpoint_mode === 'dnsrr' ? 'dnsrr' : 'vip' }), Ports: ports },
    }),
  };
}
