// The replay format: one normalized event per line, JSON with a canonical key order (type,
// symbol, tsMs, ...) so equal events are byte-equal lines. Trade lines in that order are read
// by a fast path without JSON.parse; any other line goes through JSON.parse and full checks.
import type { MarketEvent, TradeEvent } from '../../../core/messages.js';
import { validateEvent } from './event-validate.js';

/** Serializes an event in canonical key order (no trailing newline). */
export function encodeEvent(e: MarketEvent): string {
  switch (e.type) {
    case 'trade':
      return JSON.stringify({ type: e.type, symbol: e.symbol, tsMs: e.tsMs, price: e.price,
        size: e.size, side: e.side, tradeId: e.tradeId, buyer: e.buyer, seller: e.seller });
    case 'book':
      return JSON.stringify({ type: e.type, symbol: e.symbol, tsMs: e.tsMs, bids: e.bids,
        asks: e.asks });
    case 'ctx':
      return JSON.stringify({ type: e.type, symbol: e.symbol, tsMs: e.tsMs, markPx: e.markPx,
        prevDayPx: e.prevDayPx, dayNtlVlm: e.dayNtlVlm, openInterest: e.openInterest,
        fundingRate: e.fundingRate, oraclePx: e.oraclePx, midPx: e.midPx });
    case 'gap':
      return JSON.stringify({ type: e.type, symbol: e.symbol, tsMs: e.tsMs, reason: e.reason });
    case 'candle':
      return JSON.stringify({ type: e.type, symbol: e.symbol, tsMs: e.tsMs,
        intervalMs: e.intervalMs, open: e.open, high: e.high, low: e.low, close: e.close,
        volume: e.volume });
    case 'funding':
      return JSON.stringify({ type: e.type, symbol: e.symbol, tsMs: e.tsMs,
        venues: e.venues.map((v) => ({ venue: v.venue, rate: v.rate,
          intervalHours: v.intervalHours })) });
    case 'universe':
      return JSON.stringify({ type: e.type, tsMs: e.tsMs, markets: e.markets.map((m) => ({
        symbol: m.symbol, dex: m.dex, szDecimals: m.szDecimals, maxLeverage: m.maxLeverage,
        isDelisted: m.isDelisted, onlyIsolated: m.onlyIsolated, ctx: {
          markPx: m.ctx.markPx, prevDayPx: m.ctx.prevDayPx, dayNtlVlm: m.ctx.dayNtlVlm,
          openInterest: m.ctx.openInterest, fundingRate: m.ctx.fundingRate,
          oraclePx: m.ctx.oraclePx, midPx: m.ctx.midPx } })) });
    case 'wallet':
      return JSON.stringify({ type: e.type, tsMs: e.tsMs, address: e.address,
        accountValue: e.accountValue, positions: e.positions });
  }
}

/** The type and symbol of a canonical line without parsing it; null when not canonical. */
export function peekLine(line: string): { type: string; symbol: string | null } | null {
  if (!line.startsWith('{"type":"')) return null;
  const typeEnd = line.indexOf('"', 9);
  if (typeEnd < 0) return null;
  const type = line.slice(9, typeEnd);
  if (!line.startsWith(',"symbol":"', typeEnd + 1)) return { type, symbol: null };
  const symbolEnd = line.indexOf('"', typeEnd + 12);
  if (symbolEnd < 0) return null;
  return { type, symbol: line.slice(typeEnd + 12, symbolEnd) };
}

/** Decodes one line: the event, or a string saying what is wrong with it. */
export function decodeLine(line: string): MarketEvent | string {
  if (line.startsWith(TRADE_PREFIX)) {
    const fast = decodeTradeFast(line);
    if (fast) return fast;
  }
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch {
    return 'not JSON';
  }
  return validateEvent(raw);
}

const TRADE_PREFIX = '{"type":"trade","symbol":"';
const KEYS = ['","tsMs":', ',"price":', ',"size":', ',"side":', ',"tradeId":"'] as const;

const numbers = new Float64Array(4);

/** The canonical trade line by index arithmetic; null (use the slow path) on any surprise. */
function decodeTradeFast(line: string): TradeEvent | null {
  let at = TRADE_PREFIX.length;
  const symbolEnd = plainStringEnd(line, at);
  if (symbolEnd < 0) return null;
  const symbol = line.slice(at, symbolEnd);
  at = symbolEnd;
  for (let k = 0; k < 4; k++) {
    if (!line.startsWith(KEYS[k], at)) return null;
    const start = at + KEYS[k].length;
    const end = scanNumber(line, start);
    if (end < 0) return null;
    numbers[k] = scanned;
    at = end;
  }
  if (!line.startsWith(KEYS[4], at)) return null;
  const idStart = at + KEYS[4].length;
  const idEnd = plainStringEnd(line, idStart);
  // An empty id or address is refused by the slow path, with its message.
  if (idEnd <= idStart) return null;
  at = readNullableString(line, idEnd + 1, ',"buyer":');
  if (at < 0) return null;
  const buyer = stringRead;
  at = readNullableString(line, at, ',"seller":');
  if (at !== line.length - 1 || line.charCodeAt(at) !== 125) return null;
  const tsMs = numbers[0];
  const price = numbers[1];
  const size = numbers[2];
  const side = numbers[3];
  // Same checks as the slow path; anything odd falls back to it for the precise message.
  if (!(tsMs > 0 && price > 0 && size > 0 && Number.isFinite(price) && Number.isFinite(size))) {
    return null;
  }
  if (side !== 1 && side !== -1) return null;
  return { type: 'trade', symbol, tsMs, price, size, side, tradeId: line.slice(idStart, idEnd),
    buyer, seller: stringRead };
}

/** The closing quote of a string starting at `at` with no escape in it, or -1. */
function plainStringEnd(line: string, at: number): number {
  const end = line.indexOf('"', at);
  if (end < 0) return -1;
  for (let i = at; i < end; i++) if (line.charCodeAt(i) === 92) return -1;
  return end;
}

let stringRead: string | null = null;

/** `key` then null or a non-empty plain string into `stringRead`; the index past it or -1. */
function readNullableString(line: string, at: number, key: string): number {
  if (!line.startsWith(key, at)) return -1;
  const start = at + key.length;
  if (line.startsWith('null', start)) {
    stringRead = null;
    return start + 4;
  }
  if (line.charCodeAt(start) !== 34) return -1;
  const end = plainStringEnd(line, start + 1);
  if (end <= start + 1) return -1;
  stringRead = line.slice(start + 1, end);
  return end + 1;
}

const POW10 = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
  1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22];
let scanned = 0;

/**
 * Reads a plain decimal (digits, optional '.' and digits; optional leading '-') ending at ','
 * into `scanned`; returns the index of the comma, or -1 when the text needs Number() (exponent,
 * more than 15 significant digits). Mantissa / 10^k with both exact doubles is correctly
 * rounded, so the result equals Number(text).
 */
function scanNumber(line: string, start: number): number {
  let i = start;
  const negative = line.charCodeAt(i) === 45;
  if (negative) i++;
  let mantissa = 0;
  let digits = 0;
  let fraction = -1;
  for (; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      mantissa = mantissa * 10 + (c - 48);
      if (mantissa > 0) digits++;
      if (fraction >= 0) fraction++;
    } else if (c === 46 && fraction < 0) fraction = 0;
    else break;
  }
  if (i === start || line.charCodeAt(i) !== 44 || digits > 15 || fraction === 0) return -1;
  // JSON forbids "01": leave such text to JSON.parse, which refuses it.
  const first = negative ? start + 1 : start;
  if (line.charCodeAt(first) === 48 && i > first + 1 && line.charCodeAt(first + 1) !== 46) {
    return -1;
  }
  const value = fraction > 0 ? mantissa / POW10[fraction] : mantissa;
  scanned = negative ? -value : value;
  return i;
}
