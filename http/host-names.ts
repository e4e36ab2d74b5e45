// Host and Origin header tests without allocation: the Host rule runs on every request of a
// loopback front, so the header is compared in place, character by character.

/** The names a loopback front answers, at any port. */
export const LOOPBACK_HOST_NAMES = Object.freeze(['localhost', '127.0.0.1', '[::1]']);

const COLON = 58;
const DIGIT_0 = 48;
const DIGIT_9 = 57;

/** ASCII lower case of one character code (Host and Origin are case-insensitive). */
function lower(code: number): number {
  return code >= 65 && code <= 90 ? code + 32 : code;
}

/** `:` then one to five digits from `at` to the end. */
function isPortSuffix(text: string, at: number): boolean {
  const digits = text.length - at - 1;
  if (digits < 1 || digits > 5 || text.charCodeAt(at) !== COLON) return false;
  for (let i = at + 1; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < DIGIT_0 || code > DIGIT_9) return false;
  }
  return true;
}

/** Whether text from `at` equals `name` (lower case) ignoring case. */
function equalsAt(text: string, at: number, name: string): boolean {
  for (let i = 0; i < name.length; i++) {
    if (lower(text.charCodeAt(at + i)) !== name.charCodeAt(i)) return false;
  }
  return true;
}

/** Whether a Host header names one of `names` (lower case), with or without a port. */
export function hostNamed(host: string, names: readonly string[]): boolean {
  for (let n = 0; n < names.length; n++) {
    const name = names[n]!;
    if (host.length < name.length || !equalsAt(host, 0, name)) continue;
    if (host.length === name.length || isPortSuffix(host, name.length)) return true;
  }
  return false;
}

/** Whether an Origin is `http://` or `https://` followed by exactly the request's Host. */
export function isOwnOrigin(origin: string, host: string): boolean {
  if (host === '') return false;
  const at = origin.startsWith('http://') ? 7 : origin.startsWith('https://') ? 8 : -1;
  if (at < 0 || origin.length - at !== host.length) return false;
  for (let i = 0; i < host.length; i++) {
    if (lower(origin.charCodeAt(at + i)) !== lower(host.charCodeAt(i))) return false;
  }
  return true;
}
