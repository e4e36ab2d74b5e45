// Checks an alert's webhook URL when it is stored: https, and no private, loopback or
// link-local host unless the operator allows them (ORDERFLOW_ALLOW_PRIVATE_WEBHOOKS=1).
// Whether it is a registered endpoint of the account is resolved at delivery time.
import type { Parsed } from './alert-parse.js';

const URL_BYTES_MAX = 2_048;

function isPrivateIpv4(host: string): boolean {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (!m) return false;
  const [a, b] = [Number(m[1]), Number(m[2])];
  return a === 10 || a === 127 || a === 0 || (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) ||
    (a === 100 && b >= 64 && b <= 127);
}

function isPrivateIpv6(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (!h.includes(':')) return false;
  return h === '::1' || h === '::' || /^f[cd]/.test(h) || /^fe[89ab]/.test(h) ||
    /^::ffff:/.test(h);
}

export function isPrivateHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || isPrivateIpv4(host) ||
    isPrivateIpv6(host);
}

export function validateWebhookUrl(text: string, allowPrivate: boolean): Parsed<string> {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    const found = JSON.stringify(text);
    return { ok: false, error: `webhook must be an absolute https URL (was ${found})` };
  }
  if (text.length > URL_BYTES_MAX) {
    return { ok: false, error: `webhook must be at most ${URL_BYTES_MAX} characters ` +
      `(was ${text.length})` };
  }
  const httpOk = allowPrivate && url.protocol === 'http:';
  if (url.protocol !== 'https:' && !httpOk) {
    return { ok: false, error: `webhook must use https (was ${url.protocol.replace(':', '')}; ` +
      'http needs ORDERFLOW_ALLOW_PRIVATE_WEBHOOKS=1)' };
  }
  if (!allowPrivate && isPrivateHost(url.hostname)) {
    return { ok: false, error: `webhook must not point at a private, loopback or link-local ` +
      `address (was ${url.hostname}; allow with ORDERFLOW_ALLOW_PRIVATE_WEBHOOKS=1)` };
  }
  if (url.username !== '' || url.password !== '') {
    return { ok: false, error: 'webhook must not carry credentials in the URL (was user:pass@)' };
  }
  // Stored as given so it compares equal to the endpoint URL the user registered.
  return { ok: true, value: text };
}
