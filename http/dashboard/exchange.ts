// One dashboard request on uWS: what was read while the handler ran (uWS forbids reading the
// request later), the body read asynchronously with a size bound, and the answer written once
// (corked) unless the client went away first.
import type { HttpRequest, HttpResponse } from 'uWebSockets.js';
import type { Problem } from '../access-types.js';
import { clientAddress, formatPeerAddress, type TrustCheck } from '../client-ip.js';
import { problemBody } from '../problems.js';
import { statusLine } from '../respond.js';
import { securityHeaders } from './security-headers.js';

const extraReasons: Readonly<Record<number, string>> = {
  201: '201 Created', 409: '409 Conflict', 413: '413 Content Too Large',
  415: '415 Unsupported Media Type',
};

function dashboardStatus(status: number): string {
  return extraReasons[status] ?? statusLine(status);
}

/** Account API bodies are small JSON objects. */
export const BODY_BYTES_MAX = 16_384;

export type Headers = readonly (readonly [string, string])[];

export class Exchange {
  readonly method: string;
  readonly path: string;
  readonly query: string;
  readonly cookie: string;
  readonly origin: string;
  readonly host: string;
  readonly csrfToken: string;
  readonly contentType: string;
  readonly ifNoneMatch: string;
  readonly ip: string;
  /** https directly (never for this plain listener) or as told by a trusted proxy. */
  readonly https: boolean;
  /** The request body, read from the start for methods that carry one (uWS needs onData now). */
  readonly body: Promise<string | null>;
  private aborted = false;
  private done = false;

  constructor(private readonly res: HttpResponse, req: HttpRequest, trusted: TrustCheck) {
    this.method = req.getMethod().toUpperCase();
    this.path = req.getUrl();
    this.query = req.getQuery() ?? '';
    this.cookie = req.getHeader('cookie');
    this.origin = req.getHeader('origin');
    this.host = req.getHeader('host');
    this.csrfToken = req.getHeader('x-csrf-token');
    this.contentType = req.getHeader('content-type');
    this.ifNoneMatch = req.getHeader('if-none-match');
    const peer = formatPeerAddress(res.getRemoteAddress());
    this.ip = clientAddress(peer, req.getHeader('x-forwarded-for'), trusted);
    this.https = trusted(peer) && req.getHeader('x-forwarded-proto').toLowerCase() === 'https';
    res.onAborted(() => { this.aborted = true; });
    this.body = this.method === 'GET' || this.method === 'HEAD' || this.method === 'OPTIONS'
      ? Promise.resolve('') : this.readBody(BODY_BYTES_MAX);
  }

  /** The scheme and host the browser used: what a same-origin request's Origin must equal. */
  get selfOrigin(): string {
    return `${this.https ? 'https' : 'http'}://${this.host}`;
  }

  /** The body as text, at most maxBytes (a longer one resolves null). */
  private readBody(maxBytes: number): Promise<string | null> {
    return new Promise((resolve) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let over = false;
      this.res.onData((chunk, last) => {
        size += chunk.byteLength;
        if (size > maxBytes) over = true;
        // uWS reuses the chunk's memory after this callback: copy it.
        else chunks.push(Buffer.from(chunk.slice(0)));
        if (last) resolve(over ? null : Buffer.concat(chunks).toString('utf8'));
      });
    });
  }

  send(status: number, contentType: string, body: string | Uint8Array, headers: Headers = []):
    void {
    if (this.aborted || this.done) return;
    this.done = true;
    this.res.cork(() => {
      this.res.writeStatus(dashboardStatus(status));
      this.res.writeHeader('Content-Type', contentType);
      for (const [name, value] of securityHeaders) this.res.writeHeader(name, value);
      for (const [name, value] of headers) this.res.writeHeader(name, value);
      if (status === 304) this.res.endWithoutBody();
      else if (this.method === 'HEAD') this.res.endWithoutBody(body.length);
      else this.res.end(body);
    });
  }

  json(status: number, value: unknown, headers: Headers = []): void {
    this.send(status, 'application/json', JSON.stringify(value),
      [['Cache-Control', 'no-store'], ...headers]);
  }

  problem(problem: Problem): void {
    this.send(problem.status, 'application/problem+json', problemBody(problem),
      [['Cache-Control', 'no-store'], ...(problem.headers ?? [])]);
  }

  noContent(headers: Headers = []): void {
    if (this.aborted || this.done) return;
    this.done = true;
    this.res.cork(() => {
      this.res.writeStatus('204 No Content');
      for (const [name, value] of securityHeaders) this.res.writeHeader(name, value);
      for (const [name, value] of headers) this.res.writeHeader(name, value);
      this.res.endWithoutBody();
    });
  }
}
