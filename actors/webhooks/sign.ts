// Delivery signatures: HMAC-SHA256 over `<timestamp>.<raw body>`, keyed by the whole secret
// string (prefix included) as UTF-8, lower-case hex (docs/webhooks.md, docs/decisions.md).
import { createHmac } from 'node:crypto';

/** The lower-case hex HMAC of one secret; the header value is `v1=` + this. */
export function signPayload(secret: string, timestampSec: number, rawBody: string): string {
  if (!Number.isSafeInteger(timestampSec)) {
    throw new TypeError(`timestampSec must be an integer (was ${timestampSec})`);
  }
  // A string key is taken as its UTF-8 bytes: the whole secret, `whsec_` prefix included.
  return createHmac('sha256', secret)
    .update(`${timestampSec}.${rawBody}`, 'utf8')
    .digest('hex');
}

/**
 * The X-Service-Signature value: one `v1=` entry per active secret, newest first, so during the
 * 24 h after a rotation it reads `v1=<new>,v1=<old>`.
 */
export function signatureHeader(
  secrets: readonly string[], timestampSec: number, rawBody: string,
): string {
  if (secrets.length === 0) throw new Error('signatureHeader needs at least one secret');
  return secrets.map((secret) => 'v1=' + signPayload(secret, timestampSec, rawBody)).join(',');
}
