// The ports a compose file publishes on the host, in either syntax: `[ip:][host[-host]:]container[-container][/protocol]`
// or `{ target, published, protocol, mode, host_ip }`. A range publishes one host port per container
// port. Host ports are one namespace with the databases' external ports and the applications'
// published ports: a deploy claims the ones its file publishes.
import { parse } from 'yaml';
import { badRequest } from '../../errors.ts';
import { hostPort } from '../reservation/reservation.ts';
import { asMap, envMap, interpolateAll, isUnjudged, list } from './values.ts';

const PROTOCOLS = ['tcp', 'udp', 'sctp'] as const;
type Protocol = (typeof PROTOCOLS)[number];
const isProtocol = (text: string): text is Protocol => (PROTOCOLS as readonly string[]).includes(text);

export interface PortEntry {
  readonly target: number;
  /** Absent: the container port is not published on the host (or the engine picks a port). */
  readonly published?: number;
  readonly protocol: Protocol;
  /** As the file says it; absent when it does not. */
  readonly mode?: 'ingress' | 'host';
}

/** `80` or `8000-8010` as the port numbers it names; null when it is neither. */
function range(text: string): number[] | null {
  const match = /^(\d{1,5})(?:-(\d{1,5}))?$/.exec(text.trim());
  if (!match) return null;
  const first = Number(match[1]);
  const last = match[2] === undefined ? first : Number(match[2]);
  if (first < 1 || last > 65535 || last < first) return null;
  return Array.from({ length: last - first + 1 }, (_, i) => first + i);
}

function entries(targets: number[] | null, published: number[] | null, protocol: string, mode: unknown, where: string, written: string): PortEntry[] {
  if (targets === null) throw badRequest('composeFile', `${where}: port "${written}" does not name a container port (1 to 65535, or a range)`);
  if (published !== null && published.length !== targets.length) {
    throw badRequest('composeFile', `${where}: port "${written}" publishes ${published.length} host port(s) for ${targets.length} container port(s); give as many of each`);
  }
  if (!isProtocol(protocol)) throw badRequest('composeFile', `${where}: port "${written}" has the protocol "${protocol}"; tcp, udp or sctp`);
  return targets.map((target, i) => ({
    target, protocol, ...(published !== null && { published: published[i]! }), ...((mode === 'host' || mode === 'ingress') && { mode }),
  }));
}

/** One entry of a service's `ports`, as the ports it names. */
export function portEntries(entry: unknown, where: string): PortEntry[] {
  // A port that interpolates a variable is the deploy's to judge (see UNJUDGED).
  if (isUnjudged(entry) || Object.values(asMap(entry)).some(isUnjudged)) return [];
  if (typeof entry === 'object' && entry !== null) {
    const long = asMap(entry);
    const given = long.published === undefined || long.published === '' || String(long.published) === '0' ? null : String(long.published);
    const published = given === null ? null : range(given);
    if (given !== null && published === null) {
      throw badRequest('composeFile', `${where}: published port "${String(long.published)}" is not a port (1 to 65535) or a range`);
    }
    return entries(range(String(long.target)), published, String(long.protocol ?? 'tcp'), long.mode, where, JSON.stringify(entry));
  }
  const written = String(entry);
  const [mapping = '', protocol = 'tcp'] = written.split('/');
  const parts = mapping.split(':');
  // `ip:host:container`: an address of its own (IPv6 ones hold colons) comes first.
  // No host port, or 0: the engine picks one.
  const host = parts.length > 1 && parts.at(-2) !== '0' ? parts.at(-2)! : '';
  const published = host === '' ? null : range(host);
  if (host !== '' && published === null) throw badRequest('composeFile', `${where}: port "${written}" is not [HOST:]CONTAINER[/PROTOCOL]`);
  return entries(range(parts.at(-1)!), published, protocol, undefined, where, written);
}

/**
 * Every host port (`<port>/<protocol>`) the file's services publish, each once, in file order. An
 * entry this does not read (a host range for one container port, where the engine picks) claims
 * nothing: the compose tool may still take it, and the engine says if the port is busy.
 */
export function publishedPorts(text: string, env: string | null | undefined): string[] {
  const file = asMap(interpolateAll(parse(text, { merge: true }), envMap(env)));
  const readable = (entry: unknown, where: string): PortEntry[] => {
    try {
      return portEntries(entry, where);
    } catch {
      return [];
    }
  };
  const ports = Object.entries(asMap(file.services)).flatMap(([name, body]) =>
    list(asMap(body).ports).flatMap((entry) => readable(entry, `services.${name}.ports`)));
  return [...new Set(ports.flatMap((port) => (port.published === undefined ? [] : [hostPort(port.published, port.protocol)])))];
}
