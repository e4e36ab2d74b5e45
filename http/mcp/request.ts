// Everything the MCP endpoints need from a uWS request, copied synchronously (req dies at await).
import type * as uWS from 'uWebSockets.js';
import type { Credentials } from '../access-types.js';

// Hop-by-hop and framing headers describe the uWS connection, not the web Request we build.
const skippedHeaders = new Set(['host', 'content-length', 'transfer-encoding', 'connection']);

export interface IncomingRequest {
  /** Upper-case method. */
  readonly method: string;
  /** Path and query, as sent. */
  readonly target: string;
  readonly headers: Headers;
  readonly credentials: Credentials;
  readonly ip: string;
}

export function copyRequest(req: uWS.HttpRequest, ip: string): IncomingRequest {
  const headers = new Headers();
  req.forEach((name, value) => {
    if (skippedHeaders.has(name)) return;
    try {
      headers.append(name, value);
    } catch {
      // A value the web Headers class refuses cannot matter to MCP; leave it out.
    }
  });
  const query = req.getQuery() ?? '';
  const queryKey = query ? new URLSearchParams(query).get('api_key') ?? undefined : undefined;
  const authorization = req.getHeader('authorization');
  const xApiKey = req.getHeader('x-api-key');
  return {
    method: req.getCaseSensitiveMethod().toUpperCase(),
    target: query ? `${req.getUrl()}?${query}` : req.getUrl(),
    headers,
    credentials: {
      authorization: authorization === '' ? undefined : authorization,
      xApiKey: xApiKey === '' ? undefined : xApiKey,
      queryKey,
    },
    ip,
  };
}

/**
 * The web Request the SDK transport reads; the body goes separately as `parsedBody`. The origin is
 * fixed: a Host header from the client must not be able to make the URL invalid.
 */
export function toWebRequest(incoming: IncomingRequest, signal: AbortSignal): Request {
  return new Request(`http://localhost${incoming.target}`, {
    method: incoming.method,
    headers: incoming.headers,
    signal,
  });
}
