// Which IP addresses a webhook may not reach: private, loopback, link-local and other
// non-global ranges, in IPv4 and every IPv6 form that embeds an IPv4 address.
import { isIPv4, isIPv6 } from 'node:net';

type Range4 = readonly [base: string, prefixBits: number, label: string];

const refused4: readonly Range4[] = [
  ['0.0.0.0', 8, 'this network'], ['10.0.0.0', 8, 'private'], ['100.64.0.0', 10, 'shared CGNAT'],
  ['127.0.0.0', 8, 'loopback'], ['169.254.0.0', 16, 'link-local'], ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'IETF protocol'], ['192.0.2.0', 24, 'documentation'],
  ['192.168.0.0', 16, 'private'], ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation'], ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'], ['240.0.0.0', 4, 'reserved'],
];

/** Dotted quad to an unsigned 32-bit number, or null when not a strict IPv4 literal. */
export function parseIpv4(text: string): number | null {
  if (!isIPv4(text)) return null;
  return text.split('.').reduce((acc, part) => acc * 256 + Number(part), 0);
}

/** An IPv6 literal (zone id not allowed) to its eight 16-bit groups, or null. */
export function parseIpv6(text: string): number[] | null {
  if (!isIPv6(text) || text.includes('%')) return null;
  let s = text.toLowerCase();
  const lastColon = s.lastIndexOf(':');
  const tail = s.slice(lastColon + 1);
  if (tail.includes('.')) {
    const v4 = parseIpv4(tail);
    if (v4 === null) return null;
    s = s.slice(0, lastColon + 1) + (v4 >>> 16).toString(16) + ':' + (v4 & 0xffff).toString(16);
  }
  const [head, rest] = s.split('::') as [string, string | undefined];
  const headGroups = head === '' ? [] : head.split(':');
  const restGroups = rest === undefined || rest === '' ? [] : rest.split(':');
  const fill = 8 - headGroups.length - restGroups.length;
  if (fill < 0 || (rest === undefined && fill !== 0)) return null;
  return [...headGroups, ...new Array<string>(fill).fill('0'), ...restGroups]
    .map((group) => parseInt(group, 16));
}

function inRange4(value: number, base: string, prefixBits: number): boolean {
  const baseValue = parseIpv4(base) as number;
  const size = 2 ** (32 - prefixBits);
  return Math.floor(value / size) === Math.floor(baseValue / size);
}

function classify4(value: number): string | null {
  for (const [base, bits, label] of refused4) if (inRange4(value, base, bits)) return label;
  return null;
}

function embedded4(g: number[], hi: number, lo: number): number {
  return g[hi] * 65536 + g[lo];
}

function classify6(g: number[]): string | null {
  const zeroUpTo = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeroUpTo(7) && g[7] <= 1) return g[7] === 1 ? 'loopback' : 'unspecified';
  if (zeroUpTo(5) && g[5] === 0xffff) return mapped(classify4(embedded4(g, 6, 7)), 'mapped');
  if (zeroUpTo(6)) return mapped(classify4(embedded4(g, 6, 7)), 'compatible');
  if (g[0] === 0x64 && g[1] === 0xff9b) {
    if (g[2] === 1) return 'local NAT64';
    if (g.slice(2, 6).every((x) => x === 0)) return mapped(classify4(embedded4(g, 6, 7)), 'NAT64');
  }
  if (g[0] === 0x2002) return mapped(classify4(embedded4(g, 1, 2)), '6to4');
  if (g[0] === 0x2001 && g[1] === 0) return 'Teredo';
  if (g[0] === 0x2001 && g[1] === 0xdb8) return 'documentation';
  if (g[0] === 0x100 && g.slice(1, 4).every((x) => x === 0)) return 'discard';
  if ((g[0] & 0xfe00) === 0xfc00) return 'unique local';
  if ((g[0] & 0xffc0) === 0xfe80) return 'link-local';
  if ((g[0] & 0xffc0) === 0xfec0) return 'site-local';
  if ((g[0] & 0xff00) === 0xff00) return 'multicast';
  return null;
}

function mapped(label: string | null, form: string): string | null {
  return label === null ? null : `${label} (IPv4-${form})`;
}

/**
 * Why an address may not receive webhooks ('loopback', 'private', ...), or null when it is a
 * global address. Anything that is not an IP literal is refused as 'not an IP address'.
 */
export function refusedAddressReason(address: string): string | null {
  const v4 = parseIpv4(address);
  if (v4 !== null) return classify4(v4);
  const v6 = parseIpv6(address);
  if (v6 !== null) return classify6(v6);
  return 'not an IP address';
}
