// The shapes ORDERFLOW_ALLOWED_HOSTS and ORDERFLOW_ALLOWED_ORIGINS entries must have, checked at
// start-up (serve-config.ts with the variable's name, resolveConfig with the field's).

const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
/** A DNS name, an IPv4 address, or an IPv6 address in brackets; lower case, no port. */
const HOST = `(?:${LABEL}(?:\\.${LABEL})*|\\[[0-9a-f:.]+\\])`;
const HOST_NAME = new RegExp(`^${HOST}$`);
const ORIGIN = new RegExp(`^https?://${HOST}(?::(\\d{1,5}))?$`);

/** Entries each list may hold: a bound, as on every table the front keeps. */
export const ALLOWED_ENTRIES_MAX = 64;

/** A Host name (`orderflow.example.com`, `10.0.0.5`, `[fd00::5]`), matched at any port. */
export function isAllowedHostEntry(text: string): boolean {
  return text.length <= 255 && HOST_NAME.test(text);
}

/** A browser origin as sent in `Origin`: scheme, host and optional port, nothing after. */
export function isAllowedOriginEntry(text: string): boolean {
  const match = ORIGIN.exec(text);
  if (match === null || text.length > 300) return false;
  return match[1] === undefined || (Number(match[1]) >= 1 && Number(match[1]) <= 65535);
}

/** The comma list of an environment variable, trimmed and lower-cased; empty parts dropped. */
export function hostList(text: string): string[] {
  return text.split(',').map((part) => part.trim().toLowerCase()).filter(Boolean);
}
