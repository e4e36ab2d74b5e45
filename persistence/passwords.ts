// Password digests: scrypt with a per-user random salt, compared in constant time. The
// password itself is never stored or logged.
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/** scrypt cost: N=2^15, r=8, p=1 (about 32 MiB and tens of ms a digest; OWASP's minimum). */
export const SCRYPT_PARAMS = Object.freeze({ N: 32768, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
const DIGEST_BYTES = 32;
const SALT_BYTES = 16;
export const PASSWORD_CHARS_MIN = 10;
export const PASSWORD_CHARS_MAX = 200;

/** What is stored of a password: `scrypt$N$r$p$<salt b64url>$<digest b64url>`. */
export type PasswordDigest = string;

function derive(password: string, salt: Buffer, N: number, r: number, p: number):
  Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const options = { N, r, p, maxmem: SCRYPT_PARAMS.maxmem };
    scrypt(password.normalize('NFKC'), salt, DIGEST_BYTES, options,
      (error, key) => (error ? reject(error) : resolve(key)));
  });
}

/** Why a password is refused, or null when it is acceptable. */
export function passwordProblem(password: string): string | null {
  if (password.length < PASSWORD_CHARS_MIN || password.length > PASSWORD_CHARS_MAX) {
    return `the password must be ${PASSWORD_CHARS_MIN} to ${PASSWORD_CHARS_MAX} characters ` +
      `(was ${password.length})`;
  }
  return null;
}

export async function hashPassword(password: string): Promise<PasswordDigest> {
  const salt = randomBytes(SALT_BYTES);
  const { N, r, p } = SCRYPT_PARAMS;
  const digest = await derive(password, salt, N, r, p);
  return ['scrypt', N, r, p, salt.toString('base64url'), digest.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: PasswordDigest):
  Promise<boolean> {
  const [scheme, n, r, p, saltText, digestText] = stored.split('$');
  if (scheme !== 'scrypt' || digestText === undefined) return false;
  const expected = Buffer.from(digestText, 'base64url');
  const actual = await derive(password, Buffer.from(saltText, 'base64url'), Number(n), Number(r),
    Number(p));
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** A digest to compare against when the account does not exist, so timing says nothing. */
let decoy: Promise<PasswordDigest> | undefined;
export function decoyDigest(): Promise<PasswordDigest> {
  return (decoy ??= hashPassword(randomBytes(16).toString('hex')));
}
