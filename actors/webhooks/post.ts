// One HTTP POST of a delivery attempt over node:http(s), connected to the address that was
// checked (a pinned lookup, so DNS rebinding cannot redirect it), with a hard time limit.
import * as http from 'node:http';
import * as https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { CheckedTarget } from './url-check.js';

export type AttemptResult =
  | {
    readonly kind: 'response'; readonly status: number;
    readonly retryAfter: string | null; readonly date: string | null;
  }
  | {
    readonly kind: 'error';
    readonly reason: 'timeout' | 'connection_refused' | 'network' | 'address_refused' | 'aborted';
    readonly message: string;
  };

/** Response bodies are drained and discarded; past this the socket is dropped. */
const RESPONSE_BYTES_MAX = 65_536;

export interface PostAgents {
  readonly http: http.Agent;
  readonly https: https.Agent;
}

/**
 * Keep-alive agents with at most `totalMax` sockets. The dispatcher already bounds attempts per
 * endpoint; several endpoints may share a host, so the agent bounds only the total.
 */
export function createAgents(totalMax: number): PostAgents {
  const options = { keepAlive: true, maxSockets: totalMax, maxTotalSockets: totalMax };
  return { http: new http.Agent(options), https: new https.Agent(options) };
}

function pinnedLookup(target: CheckedTarget): LookupFunction {
  return ((_host: string, options: { all?: boolean }, callback: Function) => {
    if (options?.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  }) as unknown as LookupFunction;
}

function errorResult(error: NodeJS.ErrnoException, timedOut: boolean, aborted: boolean):
  AttemptResult {
  if (timedOut) return { kind: 'error', reason: 'timeout', message: 'no response within limit' };
  if (aborted) return { kind: 'error', reason: 'aborted', message: 'abandoned at shutdown' };
  if (error.code === 'ECONNREFUSED') {
    return { kind: 'error', reason: 'connection_refused', message: error.message };
  }
  const message = `${error.code ?? 'error'}: ${error.message}`;
  return { kind: 'error', reason: 'network', message };
}

interface PostOptions {
  readonly timeoutMs: number;
  readonly agents: PostAgents;
  readonly signal: AbortSignal;
}

/**
 * Sends the POST; resolves (never rejects) once the status line arrives or the attempt fails.
 * A kept-alive socket that the receiver closed while it sat idle fails at once with ECONNRESET
 * (or EPIPE) before the request reached anyone: that one is sent again on a new connection,
 * within the same attempt (Node's documented remedy, `request.reusedSocket`), instead of
 * costing the delivery a retry minutes later.
 */
export async function postOnce(target: CheckedTarget, headers: Readonly<Record<string, string>>,
  body: string, options: PostOptions): Promise<AttemptResult> {
  const first = await send(target, headers, body, options);
  return first.staleSocket ? (await send(target, headers, body, options)).result : first.result;
}

function send(target: CheckedTarget, headers: Readonly<Record<string, string>>, body: string,
  options: PostOptions): Promise<{ result: AttemptResult; staleSocket: boolean }> {
  return new Promise((resolve) => {
    const isHttps = target.url.protocol === 'https:';
    const payload = Buffer.from(body, 'utf8');
    let timedOut = false;
    const request = (isHttps ? https : http).request({
      method: 'POST',
      host: target.host,
      port: target.url.port === '' ? (isHttps ? 443 : 80) : Number(target.url.port),
      path: target.url.pathname + target.url.search,
      headers: { ...headers, 'Content-Length': String(payload.length) },
      agent: isHttps ? options.agents.https : options.agents.http,
      lookup: pinnedLookup(target),
      signal: options.signal,
    });
    const timer = setTimeout(() => {
      timedOut = true;
      request.destroy(new Error('timeout'));
    }, options.timeoutMs);
    request.on('response', (response) => {
      resolve({ staleSocket: false, result: {
        kind: 'response', status: response.statusCode ?? 0,
        retryAfter: response.headers['retry-after'] ?? null, date: response.headers.date ?? null,
      } });
      let bytes = 0;
      response.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (bytes > RESPONSE_BYTES_MAX) response.destroy();
      });
      response.on('close', () => clearTimeout(timer));
      response.on('error', () => clearTimeout(timer));
    });
    request.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      const aborted = options.signal.aborted;
      const staleSocket = request.reusedSocket && !timedOut && !aborted &&
        (error.code === 'ECONNRESET' || error.code === 'EPIPE');
      resolve({ staleSocket, result: errorResult(error, timedOut, aborted) });
    });
    request.end(payload);
  });
}
