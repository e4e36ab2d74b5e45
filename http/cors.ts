// CORS for browser clients: allowed origins from config (default *), the exposed headers, and
// the preflight answer (DECISIONS.md "Plans and access").

export const EXPOSED_HEADERS = [
  'ETag', 'Last-Modified', 'Cache-Control', 'Retry-After', 'RateLimit', 'RateLimit-Policy',
  'X-Producer-Cadence-Ms', 'Mcp-Session-Id',
].join(', ');
export const PREFLIGHT_ALLOWED_HEADERS =
  'Authorization, x-api-key, If-None-Match, Content-Type, Mcp-Session-Id, Mcp-Protocol-Version, ' +
  'Last-Event-ID';
export const PREFLIGHT_MAX_AGE_SECONDS = '600';

export interface Cors {
  /** The Access-Control-Allow-Origin value for a request's Origin, or undefined for none. */
  allowOrigin(origin: string): string | undefined;
  /** True when the answer depends on Origin (so caches must Vary on it). */
  readonly varies: boolean;
}

export function createCors(origins: readonly string[]): Cors {
  if (origins.includes('*')) return { allowOrigin: () => '*', varies: false };
  const allowed = new Set(origins);
  return {
    allowOrigin: (origin) => (origin !== '' && allowed.has(origin) ? origin : undefined),
    varies: true,
  };
}
