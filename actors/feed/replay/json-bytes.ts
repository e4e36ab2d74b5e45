// The type and symbol of a canonical JSON replay line, read from its bytes without parsing:
// a feed skips the lines it does not want without making a string of them.
import * as bytes from './byte-scan.js';

// Hot imports are bound to module-local names once: shard workers load TypeScript through tsx's
// CommonJS transform, where every use of an imported binding is a getter call (2-3x the cost).
const { asciiBytes, bytesAt, scan, scanJsonString, textOf } = bytes;
const QUOTE = 34;

const TYPE_PREFIX = asciiBytes('{"type":"');
const SYMBOL_KEY = asciiBytes(',"symbol":"');
const EVENT_TYPES = ['trade', 'book', 'ctx', 'gap', 'funding', 'universe', 'wallet'];
const TYPE_BYTES = EVENT_TYPES.map(asciiBytes);

/** What peekJson found: the event type (a shared constant string) and the symbol or null. */
export const peeked = { type: '', symbol: null as string | null };

/**
 * The type and symbol of a canonical JSON line into `peeked`; false when the line is not
 * canonical (another key order, an unknown type, an escaped symbol).
 */
export function peekJson(buf: Buffer, start: number, end: number): boolean {
  if (!bytesAt(buf, start, end, TYPE_PREFIX)) return false;
  const typeStart = start + TYPE_PREFIX.length;
  let kind = -1;
  for (let k = 0; k < TYPE_BYTES.length && kind < 0; k++) {
    const t = TYPE_BYTES[k];
    if (bytesAt(buf, typeStart, end, t) && buf[typeStart + t.length] === QUOTE) kind = k;
  }
  if (kind < 0) return false;
  peeked.type = EVENT_TYPES[kind];
  const after = typeStart + TYPE_BYTES[kind].length + 1;
  if (!bytesAt(buf, after, end, SYMBOL_KEY)) {
    peeked.symbol = null;
    return true;
  }
  const symbolStart = after + SYMBOL_KEY.length;
  const symbolEnd = scanJsonString(buf, symbolStart, end);
  if (symbolEnd < 0) return false;
  peeked.symbol = textOf(buf, symbolStart, symbolEnd, scan.ascii);
  return true;
}
