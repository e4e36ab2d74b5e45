// Writing answers to uWS: payloads, 304s, problems and preflights, each with the CORS headers.
// Handlers here are synchronous, so uWS has the response corked already.
import type { HttpResponse } from 'uWebSockets.js';
import type { Problem } from './access-types.js';
import { EXPOSED_HEADERS, PREFLIGHT_ALLOWED_HEADERS, PREFLIGHT_MAX_AGE_SECONDS,
  type Cors } from './cors.js';
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
  const origin = cors.allowOrigin(info.origin);
  const out: [string, string][] = [];
  if (origin !== undefined) {
    out.push(['Access-Control-Allow-Origin', origin]);
    out.push(['Access-Control-Expose-Headers', EXPOSED_HEADERS]);
  }
  if (cors.varies) out.push(['Vary', 'Origin']);
  return out;
}

function writeCors(res: HttpResponse, info: RequestInfo, cors: Cors): void {
  const origin = cors.allowOrigin(info.origin);
  if (origin !== undefined) {
    res.writeHeader('Access-Control-Allow-Origin', origin);
    res.writeHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS);
  }
  if (cors.varies) res.writeHeader('Vary', 'Origin');
}

function writeHeaders(res: HttpResponse, headers: HeaderList | undefined): void {
  if (headers === undefined) return;
  for (const [name, value] of headers) res.writeHeader(name, value);
}

function writeValidators(res: HttpResponse, payload: Payload): void {
  res.writeHeader('Cache-Control', payload.cacheControl);
  if (payload.etag !== undefined) res.writeHeader('ETag', payload.etag);
  if (payload.lastModified !== undefined) res.writeHeader('Last-Modified', payload.lastModified);
  if (payload.cadence !== undefined) res.writeHeader('X-Producer-Cadence-Ms', payload.cadence);
}

export function sendPayload(res: HttpResponse, info: RequestInfo, cors: Cors, payload: Payload,
  extra: HeaderList): void {
  res.writeStatus(statusLine(payload.status ?? 200));
  res.writeHeader('Content-Type', payload.contentType);
  writeValidators(res, payload);
  writeHeaders(res, payload.headers);
  writeHeaders(res, extra);
  writeCors(res, info, cors);
  res.end(payload.body);
}

/** 304: the validators and cadence again, no body (RFC 9110 15.4.5). */
export function sendNotModified(res: HttpResponse, info: RequestInfo, cors: Cors,
  payload: Payload, extra: HeaderList): void {
  res.writeStatus('304 Not Modified');
  writeValidators(res, payload);
  writeHeaders(res, extra);
  writeCors(res, info, cors);
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

/** A CORS preflight: 204, no quota (DECISIONS.md). */
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
