// The headers every dashboard answer carries (docs/decisions.md, Dashboard and accounts): a CSP
// allowing only the service's own files, no framing, no sniffing, same-origin referrers.
export const DASHBOARD_CSP = "default-src 'self'; frame-ancestors 'none'";

export const securityHeaders: readonly (readonly [string, string])[] = Object.freeze([
  ['Content-Security-Policy', DASHBOARD_CSP],
  ['X-Content-Type-Options', 'nosniff'],
  ['Referrer-Policy', 'same-origin'],
  ['X-Frame-Options', 'DENY'],
] as const);
