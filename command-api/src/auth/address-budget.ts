import { isIPv4, isIPv6 } from 'node:net';

/** The groups of an IPv6 address's network part (/64): one site's hosts, however many it has. */
const NETWORK_GROUPS = 4;

/** The 8 groups of an IPv6 address, `::` expanded; null for a form with an IPv4 tail other than the mapped one. */
function groupsOf(address: string): string[] | null {
  const [head = '', tail] = address.split('::');
  const part = (text: string) => (text === '' ? [] : text.split(':'));
  const left = part(head);
  const right = tail === undefined ? [] : part(tail);
  if ([...left, ...right].some((group) => group.includes('.'))) return null;
  return [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
}

/**
 * Whose sign-in budget an address spends. An IPv4 client reached over an IPv6 socket
 * (`::ffff:a.b.c.d`) is the IPv4 client it is; an IPv6 client spends its /64's budget, since one
 * host commonly holds a whole /64 and could otherwise take a fresh budget per address.
 */
export function addressBudget(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped && isIPv4(mapped[1]!)) return mapped[1]!;
  if (!isIPv6(address)) return address;
  const groups = groupsOf(address.split('%')[0]!);
  if (!groups) return address;
  return `${groups.slice(0, NETWORK_GROUPS).map((group) => parseInt(group, 16).toString(16)).join(':')}::/64`;
}
