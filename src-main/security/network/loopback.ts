/** Loopback recognition shared by the bind check and the DNS-rebinding checks. */
import { BlockList, isIP } from 'node:net';

const loopbackAddresses = new BlockList();
loopbackAddresses.addSubnet('127.0.0.0', 8, 'ipv4');
loopbackAddresses.addAddress('::1', 'ipv6');

/** True for 127.0.0.0/8, ::1 and their IPv4-mapped IPv6 forms. Names are not resolved. */
export function isLoopbackAddress(address: string): boolean {
  const unbracketed = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  const family = isIP(unbracketed);
  if (family === 0) return false;
  return loopbackAddresses.check(unbracketed, family === 6 ? 'ipv6' : 'ipv4');
}

/**
 * Every request's Host (and Origin) is checked, almost always with the same few names; a BlockList
 * lookup allocates a SocketAddress each time. Clients choose these strings, so the memory is capped.
 */
const verdictByHost = new Map<string, boolean>();
const MAX_REMEMBERED_HOSTS = 64;

/**
 * True for a loopback IP literal or the name `localhost` (RFC 6761 reserves it for loopback; browsers
 * never send it to DNS). Other names are refused even if they resolve to 127.0.0.1 today: resolving
 * to loopback is exactly what a DNS-rebinding attacker arranges.
 */
export function isLoopbackHostName(host: string): boolean {
  let verdict = verdictByHost.get(host);
  if (verdict === undefined) {
    const name = host.toLowerCase().replace(/\.$/, '');
    verdict = name === 'localhost' || isLoopbackAddress(name);
    if (verdictByHost.size >= MAX_REMEMBERED_HOSTS) verdictByHost.clear();
    verdictByHost.set(host, verdict);
  }
  return verdict;
}
