// A compose service's container options beyond image, command, environment and mounts, as the
// orchestrator's service spec takes them; and what of a service a stack does not use, which the
// deployment's log lists (as the orchestrator's own stack tool warns of it) instead of dropping it
// unsaid.
import { badRequest } from '../../errors.ts';
import type { StackServiceSpec } from './stack-spec.ts';
import { asMap, isUnjudged, labelMap, type Map } from './values.ts';

type ContainerSpec = StackServiceSpec['TaskTemplate']['ContainerSpec'];

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : value === undefined ? [] : [String(value)]);

/** `host:ip`, `host=ip` or `{host: ip}` as the hosts file's `ip host`. */
function hosts(value: unknown): string[] {
  const entries = Array.isArray(value)
    ? value.map((entry) => {
      const text = String(entry);
      const at = text.includes('=') ? text.indexOf('=') : text.indexOf(':');
      return [text.slice(0, at), text.slice(at + 1)] as const;
    })
    : Object.entries(asMap(value)).map(([host, ip]) => [host, String(ip)] as const);
  return entries.map(([host, ip]) => `${ip} ${host}`);
}

function ulimits(value: unknown, where: string): Array<{ Name: string; Soft: number; Hard: number }> {
  return Object.entries(asMap(value)).map(([name, limit]) => {
    const both = typeof limit === 'number' ? { soft: limit, hard: limit } : asMap(limit);
    const soft = Number(both.soft);
    const hard = Number(both.hard);
    const unjudged = [limit, both.soft, both.hard].some(isUnjudged);
    if (!unjudged && (!Number.isInteger(soft) || !Number.isInteger(hard))) throw badRequest('composeFile', `${where}.ulimits.${name}: needs whole numbers "soft" and "hard", or one number`);
    return { Name: name, Soft: soft, Hard: hard };
  });
}

const bool = (value: unknown) => value === true;

/** The container options `body` sets, each only when the file sets it. */
export function containerOptions(body: Map, where: string): Partial<ContainerSpec> {
  const dns = {
    ...(body.dns !== undefined && { Nameservers: strings(body.dns) }),
    ...(body.dns_search !== undefined && { Search: strings(body.dns_search) }),
    ...(body.dns_opt !== undefined && { Options: strings(body.dns_opt) }),
  };
  return {
    ...(body.extra_hosts !== undefined && { Hosts: hosts(body.extra_hosts) }),
    ...(Object.keys(dns).length > 0 && { DNSConfig: dns }),
    ...(body.init !== undefined && { Init: bool(body.init) }),
    ...(body.read_only !== undefined && { ReadOnly: bool(body.read_only) }),
    ...(body.tty !== undefined && { TTY: bool(body.tty) }),
    ...(body.stdin_open !== undefined && { OpenStdin: bool(body.stdin_open) }),
    ...(typeof body.stop_signal === 'string' && { StopSignal: body.stop_signal }),
    ...(body.cap_add !== undefined && { CapabilityAdd: strings(body.cap_add) }),
    ...(body.cap_drop !== undefined && { CapabilityDrop: strings(body.cap_drop) }),
    ...(body.sysctls !== undefined && { Sysctls: labelMap(body.sysctls) }),
    ...(body.ulimits !== undefined && { Ulimits: ulimits(body.ulimits, where) }),
  };
}

export function logDriver(body: Map): StackServiceSpec['TaskTemplate']['LogDriver'] | undefined {
  const logging = asMap(body.logging);
  if (typeof logging.driver !== 'string') return undefined;
  return { Name: logging.driver, ...(logging.options !== undefined && { Options: labelMap(logging.options) }) };
}

/** The keys of a service the stack spec reads; `deploy` ones apart. */
const SERVICE_KEYS = new Set([
  'image', 'command', 'entrypoint', 'environment', 'env_file', 'volumes', 'ports', 'networks', 'deploy', 'healthcheck',
  'labels', 'hostname', 'user', 'working_dir', 'stop_grace_period', 'secrets', 'configs', 'extra_hosts', 'dns',
  'dns_search', 'dns_opt', 'init', 'read_only', 'tty', 'stdin_open', 'stop_signal', 'cap_add', 'cap_drop', 'sysctls',
  'ulimits', 'logging',
]);
const DEPLOY_KEYS = new Set(['mode', 'replicas', 'resources', 'restart_policy', 'update_config', 'rollback_config', 'placement', 'labels', 'endpoint_mode']);

/** What of `body` a stack does not use (`build`, `restart`, `depends_on`...), as paths under `where`; `x-` extensions are the file's own. */
export function unusedKeys(body: Map, where: string): string[] {
  const own = (key: string) => key.startsWith('x-');
  return [
    ...Object.keys(body).filter((key) => !SERVICE_KEYS.has(key) && !own(key)).map((key) => `${where}.${key}`),
    ...Object.keys(asMap(body.deploy)).filter((key) => !DEPLOY_KEYS.has(key) && !own(key)).map((key) => `${where}.deploy.${key}`),
  ];
}
