// Error messages of the positioning folder: operating errors are values that name the field,
// what was expected and what was found.

/** The result of parsing outside input: a value, or a message naming the field. */
export type ParseResult<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly error: string };

/** Short JSON rendering of a found value for an error message (never the whole document). */
export function describeFound(found: unknown): string {
  if (found === undefined) return 'missing';
  let text: string;
  try {
    text = JSON.stringify(found) ?? String(found);
  } catch {
    text = String(found);
  }
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

export const positioningErrors = {
  invalidField: (field: string, expected: string, found: unknown): string =>
    `${field} must be ${expected} (was ${describeFound(found)})`,
  tooMany: (field: string, max: number, found: number): string =>
    `${field} must hold at most ${max} entries (was ${found})`,
} as const;

export function failure<T>(error: string): ParseResult<T> {
  return { ok: false, error };
}

export function success<T>(value: T): ParseResult<T> {
  return { ok: true, value };
}

/** Wallet addresses: 0x + 40 hex; stored and compared in lower case. */
export const walletAddressPattern = /^0x[0-9a-fA-F]{40}$/;

export function normalizeAddress(address: string): string | null {
  return walletAddressPattern.test(address) ? address.toLowerCase() : null;
}
