// Query strings: decoded strictly; an undocumented, repeated or badly encoded parameter is a 400.
import type { Problem } from './access-types.js';
import { httpBounds } from './bounds.js';
import { problems } from './problems.js';

export type QueryParams = ReadonlyMap<string, string>;
// Shared: most polls carry no query, and this answers them without allocating.
const NO_QUERY = Object.freeze({ ok: true, params: new Map() as QueryParams } as const);

function decode(text: string): string | undefined {
  try {
    return decodeURIComponent(text.indexOf('+') < 0 ? text : text.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

function shown(name: string): string {
  return JSON.stringify(name.length > 40 ? name.slice(0, 40) + '…' : name);
}

export type ParsedQuery = { ok: true; params: QueryParams } | { ok: false; problem: Problem };

/** Parses `raw` (without `?`) accepting only `allowed` names, each at most once. */
export function parseQuery(raw: string | undefined, allowed: readonly string[]): ParsedQuery {
  if (raw === undefined || raw === '') return NO_QUERY;
  const pieces = raw.split('&');
  if (pieces.length > httpBounds.queryParamsMax) {
    return { ok: false, problem: problems.badRequest(
      `the query must have at most ${httpBounds.queryParamsMax} parameters ` +
      `(was ${pieces.length})`) };
  }
  const params = new Map<string, string>();
  for (const piece of pieces) {
    if (piece === '') continue;
    const at = piece.indexOf('=');
    const name = decode(at < 0 ? piece : piece.slice(0, at));
    const value = decode(at < 0 ? '' : piece.slice(at + 1));
    if (name === undefined || value === undefined) {
      return { ok: false, problem: problems.badRequest(
        `query parameters must be valid percent-encoded UTF-8 (was ${shown(piece)})`) };
    }
    if (!allowed.includes(name)) {
      const expected = allowed.length ? `one of ${allowed.join(', ')}` : 'absent';
      return { ok: false, problem: problems.badRequest(
        `query parameters of this endpoint must be ${expected} (was ${shown(name)})`) };
    }
    if (params.has(name)) {
      return { ok: false, problem: problems.badRequest(
        `query parameter ${name} must be given once (was repeated)`) };
    }
    params.set(name, value);
  }
  return { ok: true, params };
}

/**
 * One route's parsed query strings by their raw text: a poll repeats its URL, so a hit skips
 * splitting and percent-decoding and gives the same params object each time (handlers key their
 * own memos by it). Refusals are parsed again; when full the memo starts afresh. A query that
 * carries a key (`api_key`) is never kept, so no key waits in memory beyond its request.
 */
export class QueryMemo {
  private readonly parsed = new Map<string, ParsedQuery>();

  constructor(private readonly allowed: readonly string[]) {}

  parse(raw: string | undefined): ParsedQuery {
    if (raw === undefined || raw === '') return NO_QUERY;
    let query = this.parsed.get(raw);
    if (query !== undefined) return query;
    query = parseQuery(raw, this.allowed);
    if (query.ok && raw.length <= httpBounds.queryMemoTextMax && !raw.includes('api_key')) {
      if (this.parsed.size >= httpBounds.queryMemoMax) this.parsed.clear();
      this.parsed.set(raw, Object.freeze(query));
    }
    return query;
  }
}

/** An integer parameter in [min, max], or the default when absent. */
export function intParam(params: QueryParams, name: string, fallback: number, min: number,
  max: number): { ok: true; value: number } | { ok: false; problem: Problem } {
  const text = params.get(name);
  if (text === undefined) return { ok: true, value: fallback };
  const value = /^[0-9]{1,7}$/.test(text) ? Number(text) : NaN;
  if (Number.isInteger(value) && value >= min && value <= max) return { ok: true, value };
  return { ok: false, problem: problems.badRequest(
    `${name} must be an integer from ${min} to ${max} (was ${shown(text)})`) };
}

/** One of a fixed set of values, or the default when absent. */
export function enumParam<T extends string>(params: QueryParams, name: string,
  values: readonly T[], fallback: T): { ok: true; value: T } | { ok: false; problem: Problem } {
  const text = params.get(name);
  if (text === undefined) return { ok: true, value: fallback };
  if ((values as readonly string[]).includes(text)) return { ok: true, value: text as T };
  return { ok: false, problem: problems.badRequest(
    `${name} must be one of ${values.join(', ')} (was ${shown(text)})`) };
}
