// Everything a handler needs from a uWS request, read synchronously (req is unusable after the
// handler returns or awaits).
import type { HttpRequest, HttpResponse } from 'uWebSockets.js';
import { clientAddress, formatPeerAddress, type TrustCheck } from './client-ip.js';

export interface RequestInfo {
  /** Lower case, as uWS reports it. */
  readonly method: string;
  /** Raw path, still percent-encoded, without the query. */
  readonly path: string;
  /** Raw query without `?`, or undefined. */
  readonly query: string | undefined;
  readonly authorization: string | undefined;
  readonly xApiKey: string | undefined;
  readonly ifNoneMatch: string;
  readonly origin: string;
  /** The socket peer (what /metrics' loopback rule looks at). */
  readonly peer: string;
  /** The client address after the trusted-proxy rule. */
  readonly ip: string;
  /** X-Forwarded-For as sent ('' when absent). */
  readonly forwardedFor: string;
}

/** uWS reports an absent header as ''. */
function optional(value: string): string | undefined {
  return value === '' ? undefined : value;
}

/**
 * The credential headers. uWS also reads '' for a header that is present but empty or not
 * valid UTF-8; such a header was still sent, so it must end in 401, not pass as keyless. The
 * header scan runs only when both read '' (keyless requests).
 */
function credentialHeaders(req: HttpRequest): { authorization?: string; xApiKey?: string } {
  const found = { authorization: optional(req.getHeader('authorization')),
    xApiKey: optional(req.getHeader('x-api-key')) };
  if (found.authorization === undefined && found.xApiKey === undefined) {
    req.forEach((name) => {
      if (name === 'authorization') found.authorization = '';
      else if (name === 'x-api-key') found.xApiKey = '';
    });
  }
  return found;
}

export function readRequest(res: HttpResponse, req: HttpRequest, trusted: TrustCheck):
  RequestInfo {
  const peer = formatPeerAddress(res.getRemoteAddress());
  const query = req.getQuery();
  const forwardedFor = req.getHeader('x-forwarded-for');
  const { authorization, xApiKey } = credentialHeaders(req);
  return {
    method: req.getMethod(),
    path: req.getUrl(),
    query: query === '' || query === undefined ? undefined : query,
    authorization,
    xApiKey,
    ifNoneMatch: req.getHeader('if-none-match'),
    origin: req.getHeader('origin'),
    peer,
    ip: clientAddress(peer, forwardedFor, trusted),
    forwardedFor,
  };
}

/** Whether an If-None-Match value names the tag (weak comparison, RFC 9110 13.1.2). */
export function etagMatches(ifNoneMatch: string, etag: string): boolean {
  if (ifNoneMatch === '') return false;
  if (ifNoneMatch === etag) return true;
  for (const raw of ifNoneMatch.split(',')) {
    const tag = raw.trim();
    if (tag === '*' || tag === etag || (tag.startsWith('W/') && tag.slice(2) === etag)) {
      return true;
    }
  }
  return false;
}
