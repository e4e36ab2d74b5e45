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
 * The spellings of a key in the order they are read: Authorization: Bearer, then x-api-key,
 * then the api_key query parameter. The first one sent is used, and a present but invalid one
 * is malformed: it never falls back to the next (docs/decisions.md, "Plans and access").
 */
export const keySpellings = ['authorization', 'xApiKey', 'queryKey'] as const;
export type Spelling = typeof keySpellings[number];

/** The spelling a key is read from: the first one sent, or undefined when none was. */
export function firstSent(credentials: Credentials): Spelling | undefined {
  for (const spelling of keySpellings) {
    if (credentials[spelling] !== undefined) return spelling;
  }
  return undefined;
}

/** What a request offers for a key; a later spelling is read only when no earlier one was sent. */
export type CredentialSource = Readonly<Record<Exclude<Spelling, 'queryKey'>, string | undefined>>;

/**
 * Fills `into` with the credentials the precedence reads: the first spelling sent, the later
 * ones left undefined and never read from `source` (a header read costs a call into uWS).
 */
export function readCredentials(source: CredentialSource, queryKey: string | undefined,
  into: { -readonly [K in Spelling]: string | undefined }): Credentials {
  let found = false;
  for (const spelling of keySpellings) {
    const value: string | undefined =
      found ? undefined : spelling === 'queryKey' ? queryKey : source[spelling];
    into[spelling] = value;
    found ||= value !== undefined;
  }
  return into;
}

/** The key of the first spelling sent (keySpellings), its format checked. */
export function pickKey(credentials: Credentials): PickedKey {
  const spelling = firstSent(credentials);
  if (spelling === undefined) return { kind: 'none' };
  const sent = credentials[spelling]!;
  if (spelling === 'xApiKey') return checkFormat(sent.trim(), 'x-api-key');
  if (spelling === 'queryKey') return checkFormat(sent, 'api_key');
  const match = /^Bearer +(\S+)$/i.exec(sent);
  if (!match) {
    return { kind: 'malformed', detail: 'Authorization must be "Bearer <API_KEY>" ' +
      `(was ${describe(sent.split(' ')[0] ?? '')} ...)` };
  }
  return checkFormat(match[1]!, 'Authorization');
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
    const spelling = firstSent(credentials);
    if (spelling === undefined) return { kind: 'none' };
    const sent = credentials[spelling]!;
    const memo = memos[spelling];
    const hit = memo.get(sent);
    if (hit !== undefined) return hit;
    const picked = pickKey(credentials);
    if (picked.kind !== 'key') return picked;
    const read: ReadKey = { kind: 'key', key: picked.key, source: picked.source,
      digest: createHash('sha256').update(picked.key, 'utf8').digest('hex'),
      prefix: picked.key.slice(0, KEY_PREFIX_LENGTH) };
    if (memo.size >= httpBounds.keyDigestsMax) memo.clear();
    memo.set(sent, read);
    return read;
  };
}
