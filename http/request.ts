// Everything a handler needs from a uWS request. uWS lets a handler read the request only
// while it runs (req is unusable after it returns or awaits), and every read crosses into
// C++, so the parts most answers need are read at once and the rest on first use.
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
  /** Accept-Encoding as sent ('' when absent): read only for answers that have a gzip form. */
  readonly acceptEncoding: string;
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

/** Which credential headers were sent at all (read '' when empty or not valid UTF-8). */
function sentCredentialHeaders(req: HttpRequest): { authorization: boolean; xApiKey: boolean } {
  const sent = { authorization: false, xApiKey: false };
  req.forEach((name) => {
    if (name === 'authorization') sent.authorization = true;
    else if (name === 'x-api-key') sent.xApiKey = true;
  });
  return sent;
}

/**
 * The request as read from uWS, in one object per dispatcher that `read` refills for each
 * request: a poll makes no request object (the pipeline is synchronous, and nothing keeps the
 * object past the handler's return; what must outlive it takes `owned()`). Peer address,
 * X-Forwarded-For, Origin and x-api-key are read on first use: the peer address alone costs
 * about as much as the rest of a keyed answer, and a keyed poll with limits off, or a CORS
 * config of `*`, never looks at them. So every property must be read before the handler
 * returns.
 */
export class RequestReader implements RequestInfo {
  method = '';
  path = '';
  query: string | undefined = undefined;
  authorization: string | undefined = undefined;
  ifNoneMatch = '';
  /** Refilled per request: an identity made for it reads the current request's address. */
  readonly refilled: boolean;
  #res: HttpResponse | null = null;
  #req: HttpRequest | null = null;
  readonly #trusted: TrustCheck;
  #xApiKey: string | undefined | null = null;
  #origin: string | undefined = undefined;
  #acceptEncoding: string | undefined = undefined;
  #peer: string | undefined = undefined;
  #ip: string | undefined = undefined;
  #forwardedFor: string | undefined = undefined;

  constructor(trusted: TrustCheck, refilled = true) {
    this.#trusted = trusted;
    this.refilled = refilled;
  }

  /** Forgets the previous request and reads this one's common parts. */
  read(res: HttpResponse, req: HttpRequest): this {
    this.#res = res;
    this.#req = req;
    this.#xApiKey = null;
    this.#origin = undefined;
    this.#acceptEncoding = undefined;
    this.#peer = undefined;
    this.#ip = undefined;
    this.#forwardedFor = undefined;
    this.method = req.getMethod();
    this.path = req.getUrl();
    const query = req.getQuery();
    this.query = query === '' || query === undefined ? undefined : query;
    this.ifNoneMatch = req.getHeader('if-none-match');
    const authorization = optional(req.getHeader('authorization'));
    this.authorization = authorization;
    if (authorization === undefined) {
      // uWS also reads '' for a credential header that is present but empty or not valid
      // UTF-8; such a header was still sent, so it must end in 401, not pass as keyless. The
      // header scan runs only when neither credential header reads as a value.
      const xApiKey = optional(req.getHeader('x-api-key'));
      if (xApiKey === undefined) {
        const sent = sentCredentialHeaders(req);
        this.authorization = sent.authorization ? '' : undefined;
        this.#xApiKey = sent.xApiKey ? '' : undefined;
      } else {
        this.#xApiKey = xApiKey;
      }
    }
    return this;
  }

  /**
   * This request in an object of its own, for an answer that leaves after the handler
   * returned (scale-out's Redis step): what was read is copied, the rest still reads on first
   * use, so the caller must read what it needs before the handler returns.
   */
  owned(): RequestInfo {
    const copy = new RequestReader(this.#trusted, false);
    copy.method = this.method;
    copy.path = this.path;
    copy.query = this.query;
    copy.authorization = this.authorization;
    copy.ifNoneMatch = this.ifNoneMatch;
    copy.#res = this.#res;
    copy.#req = this.#req;
    copy.#xApiKey = this.#xApiKey;
    copy.#origin = this.#origin;
    copy.#acceptEncoding = this.#acceptEncoding;
    copy.#peer = this.#peer;
    copy.#ip = this.#ip;
    copy.#forwardedFor = this.#forwardedFor;
    return copy;
  }

  /** Never used when Authorization is sent (it wins, docs/decisions.md), so read on demand. */
  get xApiKey(): string | undefined {
    if (this.#xApiKey === null) this.#xApiKey = optional(this.#req!.getHeader('x-api-key'));
    return this.#xApiKey;
  }

  get origin(): string {
    return (this.#origin ??= this.#req!.getHeader('origin'));
  }

  get acceptEncoding(): string {
    return (this.#acceptEncoding ??= this.#req!.getHeader('accept-encoding'));
  }

  get forwardedFor(): string {
    return (this.#forwardedFor ??= this.#req!.getHeader('x-forwarded-for'));
  }

  get peer(): string {
    return (this.#peer ??= formatPeerAddress(this.#res!.getRemoteAddress()));
  }

  get ip(): string {
    return (this.#ip ??= clientAddress(this.peer, this.forwardedFor, this.#trusted));
  }
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
