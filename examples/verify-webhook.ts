// Receiving orderflow webhooks: a small library (and, run directly, an example server) that
// verifies a delivery the way the docs ask: HMAC over the raw body compared in constant time,
// the 300 s timestamp tolerance, either entry of a rotated signature, and duplicate event ids.
//
//   WEBHOOK_SECRET=whsec_... PORT=8787 node --import tsx examples/verify-webhook.ts
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';

export const TOLERANCE_SEC = 300;

export type Verdict =
  | { readonly ok: true; readonly eventId: string; readonly duplicate: boolean }
  | {
    readonly ok: false;
    readonly reason: 'missing_header' | 'stale_timestamp' | 'bad_signature' | 'bad_body';
  };

type Headers = Readonly<Record<string, string | string[] | undefined>>;

/** Header names are case-insensitive (RFC 9110): frameworks hand them over in any case. */
function header(headers: Headers, name: string): string | undefined {
  const wanted = name.toLowerCase();
  let value = headers[wanted];
  if (value === undefined) {
    const key = Object.keys(headers).find((k) => k.toLowerCase() === wanted);
    value = key === undefined ? undefined : headers[key];
  }
  return Array.isArray(value) ? value[0] : value;
}

/** True when any `v1=` entry of the header is the HMAC of `<timestamp>.<raw body>`. */
export function signatureMatches(
  secrets: readonly string[], timestamp: string, rawBody: string, signatureHeader: string,
): boolean {
  const entries = signatureHeader.split(',').map((e) => e.trim())
    .filter((e) => e.startsWith('v1=')).map((e) => e.slice(3));
  let matched = false;
  for (const secret of secrets) {
    // The key is the whole secret string, `whsec_` prefix included.
    const expected = createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex');
    for (const entry of entries) {
      // Equal lengths first: timingSafeEqual throws otherwise; the length is not secret.
      const same = entry.length === expected.length &&
        timingSafeEqual(new TextEncoder().encode(entry), new TextEncoder().encode(expected));
      matched = matched || same; // no early exit: every entry costs the same
    }
  }
  return matched;
}

/** Remembers handled event ids, bounded: the oldest are forgotten first. */
export class SeenEvents {
  private readonly ids = new Set<string>();
  constructor(private readonly max = 100_000) {}
  has(id: string): boolean {
    return this.ids.has(id);
  }
  add(id: string): void {
    this.ids.add(id);
    if (this.ids.size > this.max) this.ids.delete(this.ids.values().next().value as string);
  }
}

/**
 * Verifies one delivery. secrets: the endpoint's current secret, plus the previous one while you
 * roll it out on your side. rawBody: the body exactly as received, before any JSON parsing.
 */
export function verifyDelivery(
  secrets: readonly string[], headers: Headers, rawBody: string, seen: SeenEvents,
  nowSec: number = Math.floor(Date.now() / 1000),
): Verdict {
  const timestamp = header(headers, 'x-service-timestamp');
  const signature = header(headers, 'x-service-signature');
  const eventId = header(headers, 'x-service-event-id');
  if (!timestamp || !signature || !eventId) return { ok: false, reason: 'missing_header' };
  if (!/^\d+$/.test(timestamp) || Math.abs(nowSec - Number(timestamp)) > TOLERANCE_SEC) {
    return { ok: false, reason: 'stale_timestamp' };
  }
  if (!signatureMatches(secrets, timestamp, rawBody, signature)) {
    return { ok: false, reason: 'bad_signature' };
  }
  let bodyId: unknown;
  try {
    bodyId = (JSON.parse(rawBody) as { id?: unknown }).id;
  } catch {
    return { ok: false, reason: 'bad_body' };
  }
  if (bodyId !== eventId) return { ok: false, reason: 'bad_body' };
  return { ok: true, eventId, duplicate: seen.has(eventId) };
}

/** The example server: 2xx fast for valid deliveries (duplicates included), 400 otherwise. */
function serve(secret: string, port: number): void {
  const seen = new SeenEvents();
  createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => { body += chunk; });
    req.on('end', () => {
      const verdict = verifyDelivery([secret], req.headers, body, seen);
      if (!verdict.ok) {
        res.writeHead(400).end(verdict.reason);
        return;
      }
      res.writeHead(204).end(); // answer first, work afterwards
      if (verdict.duplicate) return;
      seen.add(verdict.eventId);
      process.stdout.write(`event ${verdict.eventId}: ${body}\n`);
    });
  }).listen(port, () => process.stdout.write(`listening on http://127.0.0.1:${port}/\n`));
}

if (process.argv[1]?.endsWith('verify-webhook.ts') && process.env.WEBHOOK_SECRET) {
  serve(process.env.WEBHOOK_SECRET, Number(process.env.PORT ?? 8787));
}
