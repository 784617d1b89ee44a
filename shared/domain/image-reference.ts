// An image reference as the engine parses one: `[host[:port]/]path[:tag][@digest]`. One it cannot
// parse is refused on save, naming the field, rather than taken and failed at every deploy.
import { badRequest } from '../errors.ts';
import { COMPONENT, LABEL, NAME_MAX } from './registry/registry-url.ts';

const TAG = /^[\w][\w.-]{0,127}$/;
const DIGEST = /^[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}$/;
const PORT = /^[0-9]+$/;

/** The engine reads the first part as a host when it has a dot or a port, or is `localhost`. */
const isHost = (part: string) => part.includes('.') || part.includes(':') || part === 'localhost';

/** An IPv6 address in brackets, with an optional port. */
const IPV6_HOST = /^\[[0-9a-fA-F:.]+\](?::[0-9]+)?$/;

function hostProblem(host: string): string | null {
  if (host.startsWith('[')) return IPV6_HOST.test(host) ? null : `names the host "${host}", which is not an address with an optional port`;
  const [name = '', port, ...more] = host.split(':');
  if (more.length > 0 || (port !== undefined && !PORT.test(port))) return `names the host "${host}", whose port is not a number`;
  if (!name.split('.').every((label) => LABEL.test(label.toLowerCase()))) return `names the host "${host}", which is not a host name`;
  return null;
}

/** Why the engine could not parse `reference` as an image reference; null when it can. */
export function imageReferenceProblem(reference: string): string | null {
  if (reference.trim() === '') return 'must name an image';
  if (/\s/.test(reference)) return 'must not contain spaces';
  const [named = '', digest, ...rest] = reference.split('@');
  if (rest.length > 0 || (digest !== undefined && !DIGEST.test(digest))) return 'has a digest that is not <algorithm>:<hex>';
  const lastSlash = named.lastIndexOf('/');
  const tagAt = named.indexOf(':', lastSlash + 1);
  const name = tagAt === -1 ? named : named.slice(0, tagAt);
  const tag = tagAt === -1 ? null : named.slice(tagAt + 1);
  if (tag !== null && !TAG.test(tag)) return `has the tag "${tag}": a tag is up to 128 letters, digits, "_", "." and "-", not starting with "." or "-"`;
  if (name.length > NAME_MAX) return `has a name longer than ${NAME_MAX} characters`;
  const parts = name.split('/');
  const host = parts.length > 1 && isHost(parts[0]!) ? parts.shift()! : null;
  const hostFault = host === null ? null : hostProblem(host);
  if (hostFault) return hostFault;
  const bad = parts.find((part) => !COMPONENT.test(part));
  if (bad !== undefined) return `holds "${bad}", which cannot be part of an image name: each part between slashes is lowercase letters and digits, joined by ".", "_", "__" or "-"`;
  return null;
}

/** BAD_REQUEST naming `field` unless the engine could parse `reference` (imageReferenceProblem). */
export function mustBeImageReference(field: string, reference: string): void {
  const problem = imageReferenceProblem(reference);
  if (problem) throw badRequest(field, problem);
}
