// gzip for large cached answers (RFC 9110 8.4, 12.5.3): a footprint answer is ~100 KB of JSON
// polled like a 400 B pair answer, so its bytes, not its lookup, bound the polls a front serves.
// Each cached payload is compressed once, on the first request that accepts gzip, and its
// encodings live as long as it does; answers built per request (no ETag) are never compressed.
import { gzipSync } from 'node:zlib';
import { bodyBytes, withPrebuiltHeaders, type Payload } from './respond.js';

/**
 * Smaller bodies go as they are: they fit one TCP segment either way, so gzip's ~20 B of
 * framing and the client's inflate would buy nothing (a pair answer is ~400 B).
 */
export const GZIP_BODY_BYTES_MIN = 1024;

/**
 * Level 1, not zlib's default 6: it keeps most of the ratio for a fraction of the CPU, and that
 * CPU is paid on the front's one thread again for each new version of a view (every cadence).
 */
const GZIP_LEVEL = 1;

const VARY_ACCEPT_ENCODING: readonly [string, string] = ['Vary', 'Accept-Encoding'];

interface Encodings {
  /** The payload with `Vary: Accept-Encoding`: its identity answer depends on the header too. */
  readonly identity: Payload;
  /** Built on the first request that accepts gzip. */
  gzip: Payload | undefined;
}

// Keyed by the cached payload, so its encodings go when a cache evicts it. The gzip bytes (about
// a third of the identity bytes or less) are not counted in those caches' byte bounds.
const encodingsOf = new WeakMap<Payload, Encodings>();

/** Whether a payload has a gzip variant: cached (it has an ETag), a 200, above the minimum. */
export function compressible(payload: Payload): boolean {
  return payload.etag !== undefined && (payload.status === undefined || payload.status === 200) &&
    bodyBytes(payload.body) > GZIP_BODY_BYTES_MIN;
}

/** The gzip variant's strong ETag: the identity tag with `-gz` inside the quotes. */
export function gzipEtag(etag: string): string {
  return etag.endsWith('"') ? etag.slice(0, -1) + '-gz"' : etag + '-gz';
}

// Clients send the same few header values on every poll: the last one's answer is kept.
let lastAcceptEncoding = '';
let lastAcceptsGzip = false;

/**
 * Whether an Accept-Encoding value allows gzip (RFC 9110 12.5.3): `gzip` or `x-gzip` with a
 * q-value above 0, else `*` above 0 when gzip is not named. Absent or empty: identity only.
 */
export function acceptsGzip(acceptEncoding: string): boolean {
  if (acceptEncoding === '') return false;
  if (acceptEncoding === lastAcceptEncoding) return lastAcceptsGzip;
  let gzipQ = -1;
  let anyQ = -1;
  for (const part of acceptEncoding.split(',')) {
    const [rawName, ...rawParams] = part.split(';');
    const name = rawName!.trim().toLowerCase();
    let q = 1;
    for (const param of rawParams) {
      const [key, value] = param.split('=');
      if (key!.trim().toLowerCase() === 'q') {
        q = Number((value ?? '').trim());
        if (!Number.isFinite(q) || (value ?? '').trim() === '') q = 0;
      }
    }
    if (name === 'gzip' || name === 'x-gzip') gzipQ = Math.max(gzipQ, q);
    else if (name === '*') anyQ = Math.max(anyQ, q);
  }
  const accepts = gzipQ >= 0 ? gzipQ > 0 : anyQ > 0;
  lastAcceptEncoding = acceptEncoding;
  lastAcceptsGzip = accepts;
  return accepts;
}

function gzipped(payload: Payload): Payload {
  return withPrebuiltHeaders({
    ...payload,
    body: gzipSync(payload.body, { level: GZIP_LEVEL }) as unknown as Uint8Array,
    etag: gzipEtag(payload.etag!),
    headers: [...(payload.headers ?? []), ['Content-Encoding', 'gzip'], VARY_ACCEPT_ENCODING],
  });
}

/**
 * The payload to send for a request's Accept-Encoding: itself when it has no gzip variant
 * (the bytes and headers as ever), else its identity or gzip encoding, both with
 * `Vary: Accept-Encoding` and each with its own ETag.
 */
export function negotiated(payload: Payload, acceptEncoding: string): Payload {
  if (!compressible(payload)) return payload;
  let encodings = encodingsOf.get(payload);
  if (encodings === undefined) {
    encodings = { identity: withPrebuiltHeaders({ ...payload,
      headers: [...(payload.headers ?? []), VARY_ACCEPT_ENCODING] }), gzip: undefined };
    encodingsOf.set(payload, encodings);
  }
  if (!acceptsGzip(acceptEncoding)) return encodings.identity;
  return (encodings.gzip ??= gzipped(payload));
}
