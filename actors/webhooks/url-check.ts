// Webhook URL checks, at registration and again before every attempt: https only, resolved in
// DNS, and no private, loopback or link-local address unless the operator allows them. The
// checked address is returned so the connection can be pinned to it (no DNS rebinding).
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { refusedAddressReason } from './address.js';
import { WebhookError, webhookErrors } from './errors.js';

export interface ResolvedAddress {
  readonly address: string;
  readonly family: number;
}
/** Resolves a host name to every address it has (injectable so tests can fake DNS). */
export type LookupFn = (hostname: string) => Promise<readonly ResolvedAddress[]>;

export const systemLookup: LookupFn = (hostname) =>
  dnsLookup(hostname, { all: true, verbatim: true });

export interface CheckedTarget {
  readonly url: URL;
  /** The host name without IPv6 brackets. */
  readonly host: string;
  readonly address: string;
  readonly family: 4 | 6;
}

export type CheckResult =
  | { readonly ok: true; readonly target: CheckedTarget }
  | { readonly ok: false; readonly error: WebhookError };

export const URL_BYTES_MAX = 2_048;
const LOOKUP_TIMEOUT_MS = 5_000;

/** Parses and validates the URL's shape; DNS is not consulted. */
export function parseWebhookUrl(raw: string, allowPrivate: boolean): URL | WebhookError {
  const expected = allowPrivate ? 'an absolute http(s) URL' : 'an absolute https URL';
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > URL_BYTES_MAX) {
    return webhookErrors.invalidUrl(String(raw).slice(0, 80), `${expected} of 1..2048 bytes`);
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return webhookErrors.invalidUrl(raw, expected);
  }
  const protocols = allowPrivate ? ['https:', 'http:'] : ['https:'];
  if (url.protocol === 'http:' && !allowPrivate) {
    // A local test receiver is plain http: say which setting allows it, not only that it failed.
    return webhookErrors.invalidUrl(raw,
      `${expected}; http needs ORDERFLOW_ALLOW_PRIVATE_WEBHOOKS=1 (for local receivers)`);
  }
  if (!protocols.includes(url.protocol)) return webhookErrors.invalidUrl(raw, expected);
  if (url.username !== '' || url.password !== '') {
    return webhookErrors.invalidUrl(raw, `${expected} without user:password`);
  }
  if (url.hash !== '') return webhookErrors.invalidUrl(raw, `${expected} without a #fragment`);
  return url;
}

async function resolveHost(host: string, lookup: LookupFn): Promise<readonly ResolvedAddress[]> {
  if (isIP(host) !== 0) return [{ address: host, family: isIP(host) }];
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('lookup timed out')), LOOKUP_TIMEOUT_MS);
  });
  try {
    return await Promise.race([lookup(host), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Validates, resolves and checks every address the host resolves to. */
export async function checkWebhookUrl(
  raw: string, options: { allowPrivate: boolean; lookup: LookupFn },
): Promise<CheckResult> {
  const url = parseWebhookUrl(raw, options.allowPrivate);
  if (url instanceof WebhookError) return { ok: false, error: url };
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const isLocalName = host === 'localhost' || host.endsWith('.localhost');
  if (isLocalName && !options.allowPrivate) {
    return { ok: false, error: webhookErrors.urlRefused(raw, host, 'loopback name') };
  }
  let addresses: readonly ResolvedAddress[];
  try {
    addresses = await resolveHost(host, options.lookup);
  } catch (error) {
    return { ok: false, error: webhookErrors.unresolvable(host, (error as Error).message) };
  }
  if (addresses.length === 0) {
    return { ok: false, error: webhookErrors.unresolvable(host, 'no addresses') };
  }
  // Every address is checked, not only the first: a client may connect to any of them.
  for (const { address } of addresses) {
    const reason = refusedAddressReason(address);
    if (reason === 'not an IP address' || (reason !== null && !options.allowPrivate)) {
      return { ok: false, error: webhookErrors.urlRefused(raw, address, reason) };
    }
  }
  const first = addresses[0];
  const family = isIP(first.address) === 6 ? 6 : 4;
  return { ok: true, target: { url, host, address: first.address, family } };
}
