// API keys as sent: pick the spelling by priority, check the format, digest for the lookup.
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Credentials } from './access-types.js';
import { httpBounds } from './bounds.js';

/** `ofk_` + 32 lower-case hex characters (DECISIONS.md). */
export const KEY_PATTERN = /^ofk_[0-9a-f]{32}$/;
export const KEY_PREFIX_LENGTH = 'ofk_'.length + 8;

export type PickedKey =
  | { readonly kind: 'none' }
  | { readonly kind: 'key'; readonly key: string; readonly source: string }
  | { readonly kind: 'malformed'; readonly detail: string };

function describe(value: string): string {
  if (value.length > 48) return `${value.length} characters`;
  return JSON.stringify(value.replace(/[0-9a-f]{8,}$/i, (hex) => hex.slice(0, 4) + '…'));
}

function checkFormat(key: string, source: string): PickedKey {
  if (KEY_PATTERN.test(key)) return { kind: 'key', key, source };
  return {
    kind: 'malformed',
    detail: `${source} must hold a key of the form ofk_ + 32 lower-case hex characters ` +
      `(was ${describe(key)})`,
  };
}

/**
 * The first spelling present wins: Authorization: Bearer, then x-api-key, then api_key.
 * A present but invalid first spelling is malformed; it never falls back to the next one.
 */
export function pickKey(credentials: Credentials): PickedKey {
  const { authorization, xApiKey, queryKey } = credentials;
  if (authorization !== undefined) {
    const match = /^Bearer +(\S+)$/i.exec(authorization);
    if (!match) {
      return { kind: 'malformed', detail: 'Authorization must be "Bearer <API_KEY>" ' +
        `(was ${describe(authorization.split(' ')[0] ?? '')} ...)` };
    }
    return checkFormat(match[1]!, 'Authorization');
  }
  if (xApiKey !== undefined) return checkFormat(xApiKey.trim(), 'x-api-key');
  if (queryKey !== undefined) return checkFormat(queryKey, 'api_key');
  return { kind: 'none' };
}

/** SHA-256 of a key (lower-case hex), memoized: polling clients send the same key each time. */
export function createKeyDigester(): (key: string) => string {
  const memo = new LRUCache<string, string>({ max: httpBounds.keyDigestsMax });
  return (key) => {
    let digest = memo.get(key);
    if (digest === undefined) {
      digest = createHash('sha256').update(key, 'utf8').digest('hex');
      memo.set(key, digest);
    }
    return digest;
  };
}
