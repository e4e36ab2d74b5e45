// The client address: the socket peer, or X-Forwarded-For when the peer is a trusted proxy
// (ORDERFLOW_TRUST_PROXY), taking the right-most entry that is not itself trusted.
import { BlockList, isIP } from 'node:net';
import { httpBounds } from './bounds.js';

/** Formats uWS's binary peer address: IPv4 dotted, IPv4-mapped IPv6 as IPv4, IPv6 compressed. */
export function formatPeerAddress(raw: ArrayBuffer): string {
  const b = new Uint8Array(raw);
  if (b.length === 4) return `${b[0]}.${b[1]}.${b[2]}.${b[3]}`;
  if (b.length !== 16) return 'unknown';
  const mapped = b.subarray(0, 10).every((x) => x === 0) && b[10] === 0xff && b[11] === 0xff;
  if (mapped) return `${b[12]}.${b[13]}.${b[14]}.${b[15]}`;
  const groups: number[] = [];
  for (let i = 0; i < 16; i += 2) groups.push((b[i]! << 8) | b[i + 1]!);
  return compressIpv6(groups);
}

function compressIpv6(groups: readonly number[]): string {
  let bestStart = -1;
  let bestLength = 1;
  for (let i = 0; i < 8;) {
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLength) [bestStart, bestLength] = [i, j - i];
    i = j === i ? i + 1 : j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestStart < 0) return hex.join(':');
  const head = hex.slice(0, bestStart).join(':');
  const tail = hex.slice(bestStart + bestLength).join(':');
  return `${head}::${tail}`;
}

export function isLoopbackAddress(ip: string): boolean {
  return ip === '::1' || ip.startsWith('127.');
}

export type TrustCheck = (ip: string) => boolean;

/** Builds the trusted-proxy test from addresses and CIDRs; a bad entry is a config error. */
export function createTrustCheck(entries: readonly string[]): TrustCheck {
  if (entries.length === 0) return () => false;
  const list = new BlockList();
  for (const entry of entries) {
    const [address = '', prefixText] = entry.trim().split('/');
    const family = isIP(address);
    const prefix = prefixText === undefined ? undefined : Number(prefixText);
    const prefixMax = family === 6 ? 128 : 32;
    if (family === 0 || (prefix !== undefined &&
      !(Number.isInteger(prefix) && prefix >= 0 && prefix <= prefixMax))) {
      throw new TypeError(`config.trustProxy entries must be addresses or CIDRs (was ${entry})`);
    }
    const type = family === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, prefix, type);
  }
  return (ip) => {
    const family = isIP(ip);
    return family !== 0 && list.check(ip, family === 6 ? 'ipv6' : 'ipv4');
  };
}

/** The client address for a request from `peer` carrying `forwardedFor` ('' when absent). */
export function clientAddress(peer: string, forwardedFor: string, trusted: TrustCheck): string {
  if (forwardedFor === '' || !trusted(peer)) return peer;
  // The right end holds the hops our proxies wrote, so an overlong header is cut on the left
  // (dropping the partial entry the cut leaves).
  const cut = forwardedFor.length > httpBounds.forwardedForBytesMax;
  const hops = forwardedFor.slice(-httpBounds.forwardedForBytesMax).split(',');
  if (cut) hops.shift();
  let client = peer;
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i]!.trim();
    // A hop that is not an address was not written by our proxies: stop at the last good one.
    if (isIP(hop) === 0) return client;
    client = hop.startsWith('::ffff:') && isIP(hop.slice(7)) === 4 ? hop.slice(7) : hop;
    if (!trusted(client)) return client;
  }
  return client;
}
