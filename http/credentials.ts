// API keys as sent: pick the spelling by priority, check the format, digest for the lookup.
import { createHash } from 'node:crypto';
import type { Credentials } from './access-types.js';
import { httpBounds } from './bounds.js';

/** `ofk_` + 32 lower-case hex characters (docs/decisions.md). */
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

/** A well-formed key as sent, with what the key directory is looked up and checked by. */
export interface ReadKey {
  readonly kind: 'key';
  readonly key: string;
  readonly source: string;
  /** SHA-256 of the key, lower-case hex. */
  readonly digest: string;
  /** `ofk_` + the first 8 hex characters. */
  readonly prefix: string;
}

type Spelling = 'authorization' | 'xApiKey' | 'queryKey';

/**
 * pickKey, then the digest of a well-formed key, memoized on the credential as sent: polling
 * clients send the same header each time, so a hit skips the pattern checks and the SHA-256.
 * Only well-formed keys are kept, at most keyDigestsMax per spelling; a full memo starts afresh
 * (cheaper per hit than least-recently-used upkeep; a miss costs one SHA-256).
 */
export function createKeyReader(): (credentials: Credentials) =>
  ReadKey | Exclude<PickedKey, { kind: 'key' }> {
  const memos: Record<Spelling, Map<string, ReadKey>> = {
    authorization: new Map(), xApiKey: new Map(), queryKey: new Map(),
  };
  return (credentials) => {
    // The spelling pickKey will use: the first one present (docs/decisions.md priority).
    const spelling: Spelling = credentials.authorization !== undefined ? 'authorization'
      : credentials.xApiKey !== undefined ? 'xApiKey' : 'queryKey';
    const sent = credentials[spelling];
    const memo = memos[spelling];
    const hit = sent === undefined ? undefined : memo.get(sent);
    if (hit !== undefined) return hit;
    const picked = pickKey(credentials);
    if (picked.kind !== 'key') return picked;
    const read: ReadKey = { kind: 'key', key: picked.key, source: picked.source,
      digest: createHash('sha256').update(picked.key, 'utf8').digest('hex'),
      prefix: picked.key.slice(0, KEY_PREFIX_LENGTH) };
    if (memo.size >= httpBounds.keyDigestsMax) memo.clear();
    memo.set(sent!, read);
    return read;
  };
}
