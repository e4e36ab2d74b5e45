// Path parameters: pair symbols (plain tickers or builder markets `dex:TICKER`, `%3A` accepted)
// and wallet addresses, decoded and checked before any lookup.
import type { Problem } from './access-types.js';
import { problems } from './problems.js';
import type { SnapshotStore } from './snapshots.js';

const SYMBOL_PATTERN = /^(?:[a-z][a-z0-9]{0,15}:)?[A-Za-z0-9]{1,24}$/;
const ADDRESS_PATTERN = /^0x[0-9a-fA-F]{40}$/;

function decodeSegment(segment: string): string | undefined {
  if (segment.indexOf('%') < 0) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

function shown(text: string): string {
  return JSON.stringify(text.length > 40 ? text.slice(0, 40) + '…' : text);
}

/** The decoded symbol if it is well formed, else a 400 naming what was expected. */
export function parseSymbol(segment: string): { ok: true; symbol: string } |
  { ok: false; problem: Problem } {
  const symbol = decodeSegment(segment);
  if (symbol !== undefined && SYMBOL_PATTERN.test(symbol)) return { ok: true, symbol };
  return { ok: false, problem: problems.badRequest(
    'symbol must be a ticker of 1-24 letters and digits, optionally prefixed by a builder ' +
    `dex and a colon as in xyz:TSLA (was ${shown(symbol ?? segment)})`) };
}

/**
 * The listed symbol a client meant: exact first, then the ticker in upper case, then with a
 * lower-case `k` (the venue's thousand-unit tickers such as kPEPE).
 */
export function resolveListedSymbol(snapshots: SnapshotStore, symbol: string): string | undefined {
  if (snapshots.get('pair/' + symbol)) return symbol;
  const colon = symbol.indexOf(':');
  const dex = colon < 0 ? '' : symbol.slice(0, colon + 1);
  const upper = symbol.slice(colon + 1).toUpperCase();
  const candidates = [dex + upper];
  if (upper.startsWith('K')) candidates.push(dex + 'k' + upper.slice(1));
  for (const candidate of candidates) {
    if (candidate !== symbol && snapshots.get('pair/' + candidate)) return candidate;
  }
  return undefined;
}

/** The wallet address in lower case if it is 0x + 40 hex characters. */
export function parseAddress(segment: string): { ok: true; address: string } |
  { ok: false; problem: Problem } {
  const address = decodeSegment(segment);
  if (address !== undefined && ADDRESS_PATTERN.test(address)) {
    return { ok: true, address: address.toLowerCase() };
  }
  return { ok: false, problem: problems.badRequest(
    `address must be 0x followed by 40 hex characters (was ${shown(address ?? segment)})`) };
}
