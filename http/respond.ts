// Writing answers to uWS: payloads, 304s, problems and preflights, each with the CORS headers.
// Handlers here are synchronous, so uWS has the response corked already: the whole answer
// leaves in one write.
import type { HttpResponse } from 'uWebSockets.js';
import type { Problem } from './access-types.js';
import { corsLines, PREFLIGHT_ALLOWED_HEADERS, PREFLIGHT_MAX_AGE_SECONDS,
  type Cors } from './cors.js';
import {
  headerBlock, PrebuiltHeaders, type EncodedBlock, type HeaderBlock,
} from './header-block.js';
import { problemBody } from './problems.js';
import type { RequestInfo } from './request.js';

export type HeaderList = readonly (readonly [string, string])[];

/** A successful answer: bytes plus their validators. */
export interface Payload {
  readonly contentType: string;
  readonly body: Uint8Array | string;
  readonly cacheControl: string;
  readonly etag?: string;
  readonly lastModified?: string;
  /** X-Producer-Cadence-Ms: the producer's refresh period. */
  readonly cadence?: string;
  readonly status?: number;
  readonly headers?: HeaderList;
  /** The headers above joined once (withPrebuiltHeaders), for payloads served many times. */
  readonly prebuilt?: PrebuiltHeaders;
}

const reasons: Readonly<Record<number, string>> = {
  200: '200 OK', 204: '204 No Content', 304: '304 Not Modified', 400: '400 Bad Request',
  401: '401 Unauthorized', 403: '403 Forbidden', 404: '404 Not Found',
  405: '405 Method Not Allowed', 414: '414 URI Too Long', 429: '429 Too Many Requests',
  500: '500 Internal Server Error', 503: '503 Service Unavailable',
};

export function statusLine(status: number): string {
  return reasons[status] ?? String(status);
}

/** The CORS headers of an answer to this request, for handlers that write their own. */
export function corsHeaders(info: RequestInfo, cors: Cors): HeaderList {
  return corsLines(cors.allowOrigin(info.origin), cors.varies);
}

function writeBlock(res: HttpResponse, block: HeaderBlock | EncodedBlock): void {
  res.writeHeader(block[0], block[1]);
}

function writeCors(res: HttpResponse, info: RequestInfo, cors: Cors): void {
  const block = cors.block(info);
  if (block !== undefined) writeBlock(res, block);
}

function writeHeaders(res: HttpResponse, headers: HeaderList | undefined): void {
  if (headers === undefined) return;
  for (const [name, value] of headers) res.writeHeader(name, value);
}

function validatorLines(payload: Payload): [string, string][] {
  const lines: [string, string][] = [['Cache-Control', payload.cacheControl]];
  if (payload.etag !== undefined) lines.push(['ETag', payload.etag]);
  if (payload.lastModified !== undefined) lines.push(['Last-Modified', payload.lastModified]);
  if (payload.cadence !== undefined) lines.push(['X-Producer-Cadence-Ms', payload.cadence]);
  return lines;
}

/** The payload with its own headers joined once: one writeHeader call for all of them. */
export function withPrebuiltHeaders(payload: Payload): Payload {
  const validators = validatorLines(payload);
  const answer = headerBlock([['Content-Type', payload.contentType], ...validators,
    ...(payload.headers ?? [])]);
  return { ...payload, prebuilt: new PrebuiltHeaders(answer, headerBlock(validators)) };
}

export function sendPayload(res: HttpResponse, info: RequestInfo, cors: Cors, payload: Payload,
  extra: HeaderList): void {
  // uWS writes `200 OK` itself when no status was written.
  if (payload.status !== undefined && payload.status !== 200) {
    res.writeStatus(statusLine(payload.status));
  }
  const { prebuilt } = payload;
  if (prebuilt !== undefined && extra.length === 0 && cors.fixed !== undefined) {
    // The common answer (no RateLimit headers, CORS `*`): every header in one call.
    writeBlock(res, prebuilt.answerWith(cors.fixed));
  } else {
    if (prebuilt !== undefined) {
      writeBlock(res, prebuilt.answer);
    } else {
      res.writeHeader('Content-Type', payload.contentType);
      writeHeaders(res, validatorLines(payload));
      writeHeaders(res, payload.headers);
    }
    writeHeaders(res, extra);
    writeCors(res, info, cors);
  }
  if (info.method === 'head') {
    // The headers GET would send, Content-Length included, and no body (RFC 9110 9.3.2): uWS
    // would send the body, and its endWithoutBody(length) leaves the response open.
    res.writeHeader('Content-Length', String(bodyBytes(payload.body)));
    res.endWithoutBody();
  } else {
    res.end(payload.body);
  }
}

/** A body's length in bytes (a string's as UTF-8). */
export function bodyBytes(body: Uint8Array | string): number {
  return typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
}

/** 304: the validators and cadence again, no body (RFC 9110 15.4.5). */
export function sendNotModified(res: HttpResponse, info: RequestInfo, cors: Cors,
  payload: Payload, extra: HeaderList): void {
  res.writeStatus('304 Not Modified');
  const { prebuilt } = payload;
  if (prebuilt !== undefined && extra.length === 0 && cors.fixed !== undefined) {
    writeBlock(res, prebuilt.notModifiedWith(cors.fixed));
  } else {
    if (prebuilt !== undefined) writeBlock(res, prebuilt.notModified);
    else writeHeaders(res, validatorLines(payload));
    writeHeaders(res, extra);
    writeCors(res, info, cors);
  }
  res.endWithoutBody();
}

export function sendProblem(res: HttpResponse, info: RequestInfo, cors: Cors, problem: Problem,
  extra: HeaderList): void {
  res.writeStatus(statusLine(problem.status));
  res.writeHeader('Content-Type', 'application/problem+json');
  res.writeHeader('Cache-Control', 'no-store');
  writeHeaders(res, problem.headers);
  writeHeaders(res, extra);
  writeCors(res, info, cors);
  res.end(problemBody(problem));
}

/** A CORS preflight: 204, no quota (docs/decisions.md). */
export function sendPreflight(res: HttpResponse, info: RequestInfo, cors: Cors, allow: string):
  void {
  res.writeStatus('204 No Content');
  res.writeHeader('Access-Control-Allow-Methods', allow);
  res.writeHeader('Access-Control-Allow-Headers', PREFLIGHT_ALLOWED_HEADERS);
  res.writeHeader('Access-Control-Max-Age', PREFLIGHT_MAX_AGE_SECONDS);
  res.writeHeader('Allow', allow);
  writeCors(res, info, cors);
  res.endWithoutBody();
}
