// CORS for browser clients: allowed origins from config (default *), the exposed headers, and
// the preflight answer (docs/decisions.md "Plans and access").
import { headerBlock, type HeaderBlock } from './header-block.js';

export const EXPOSED_HEADERS = [
  'ETag', 'Last-Modified', 'Cache-Control', 'Retry-After', 'RateLimit', 'RateLimit-Policy',
  'X-Producer-Cadence-Ms', 'Mcp-Session-Id', 'X-Producer-Stale', 'X-Next-Cursor',
  'X-Coverage-From', 'X-Coverage-To',
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
  /**
   * Every CORS header of an answer to this request as one block, or undefined for none; built
   * at start-up (one per configured origin), so the hot path writes it in one call. Takes the
   * request, not its Origin: with `*` the Origin is never read (a call into uWS saved).
   */
  block(request: { readonly origin: string }): HeaderBlock | undefined;
  /** The block when it is the same for every request (config `*`), else undefined. */
  readonly fixed: HeaderBlock | undefined;
}

/** The CORS header lines for an allowed origin (undefined: none) and the Vary rule. */
export function corsLines(origin: string | undefined, varies: boolean): [string, string][] {
  const out: [string, string][] = [];
  if (origin !== undefined) {
    out.push(['Access-Control-Allow-Origin', origin],
      ['Access-Control-Expose-Headers', EXPOSED_HEADERS]);
  }
  if (varies) out.push(['Vary', 'Origin']);
  return out;
}

export function createCors(origins: readonly string[]): Cors {
  if (origins.includes('*')) {
    const any = headerBlock(corsLines('*', false));
    return { allowOrigin: () => '*', varies: false, block: () => any, fixed: any };
  }
  const allowed = new Set(origins);
  // Configured origins only (a bounded list), so request data never becomes a block key.
  const blocks = new Map(origins.map((o) => [o, headerBlock(corsLines(o, true))]));
  const refused = headerBlock(corsLines(undefined, true));
  return {
    allowOrigin: (origin) => (origin !== '' && allowed.has(origin) ? origin : undefined),
    varies: true,
    block: ({ origin }) => (origin === '' ? refused : blocks.get(origin) ?? refused),
    fixed: undefined,
  };
}
