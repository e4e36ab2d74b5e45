// What every account API handler gets: the exchange, the signed-in session, the JSON body,
// and the path's parameters; plus the small readers of body fields the handlers share.
import type { AccountRecord } from '../../persistence/accounts.js';
import type { Problem } from '../access-types.js';
import { accountProblems } from './account-problems.js';
import type { Exchange } from './exchange.js';
import type { ActiveSession } from './sessions.js';

export interface AccountCall {
  readonly ex: Exchange;
  readonly session: ActiveSession & { id: string };
  readonly account: AccountRecord;
  readonly body: Readonly<Record<string, unknown>>;
  /** The path parameter, e.g. the key prefix of DELETE /keys/{prefix} ('' when none). */
  readonly param: string;
}

/** A handler's answer: JSON with a status, or a problem. */
export type Answer =
  | { readonly status: number; readonly json: unknown; readonly headers?: [string, string][] }
  | { readonly problem: Problem };

export class BadField extends Error {}

/** A string field of the body (trimmed), or the fallback when absent and one is given. */
export function stringField(body: Readonly<Record<string, unknown>>, name: string,
  fallback?: string, maxChars = 2_048): string {
  const value = body[name];
  if (value === undefined || value === null || value === '') {
    if (fallback !== undefined) return fallback;
    throw new BadField(`${name} is required`);
  }
  if (typeof value !== 'string' || value.length > maxChars) {
    throw new BadField(`${name} must be a string of at most ${maxChars} characters ` +
      `(was ${typeof value === 'string' ? `${value.length} characters` : typeof value})`);
  }
  return value.trim();
}

export function problemAnswer(problem: Problem): Answer {
  return { problem };
}

export const notFound = (what: string, id: string) =>
  problemAnswer(accountProblems.notFound(what, id));

export function iso(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}
