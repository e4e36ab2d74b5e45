// Field-by-field checks of a parsed replay line: the MarketEvent, or a message naming the field.
import { VENUES, type MarketEvent } from '../../../core/messages.js';
import { isRecord } from '../home/numbers.js';

const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isPos = (v: unknown): v is number => isNum(v) && v > 0;
const isStr = (v: unknown): v is string => typeof v === 'string' && v.length > 0;
const isNullable = (v: unknown, f: (x: unknown) => boolean) => v === null || f(v);
const was = (field: string, expected: string, value: unknown) =>
  `${field}: expected ${expected} (was ${JSON.stringify(value)?.slice(0, 60)})`;

function ctxError(c: Record<string, unknown>, at: string): string | null {
  if (!isPos(c.markPx)) return was(`${at}markPx`, 'a positive number', c.markPx);
  for (const f of ['prevDayPx', 'dayNtlVlm', 'openInterest'] as const) {
    if (!isNum(c[f]) || (c[f] as number) < 0) return was(`${at}${f}`, 'a number >= 0', c[f]);
  }
  if (!isNum(c.fundingRate)) return was(`${at}fundingRate`, 'a number', c.fundingRate);
  if (!isNullable(c.oraclePx, isNum)) return was(`${at}oraclePx`, 'a number or null', c.oraclePx);
  if (!isNullable(c.midPx, isNum)) return was(`${at}midPx`, 'a number or null', c.midPx);
  return null;
}

function levelsError(levels: unknown, field: string): string | null {
  if (!Array.isArray(levels) || levels.length % 2 !== 0) {
    return was(field, 'a flat [px, sz, ...] array', levels);
  }
  for (const x of levels) if (!isPos(x)) return was(field, 'positive numbers', x);
  return null;
}

function eventError(e: Record<string, unknown>): string | null {
  switch (e.type) {
    case 'trade':
      if (!isPos(e.price)) return was('price', 'a positive number', e.price);
      if (!isPos(e.size)) return was('size', 'a positive number', e.size);
      if (e.side !== 1 && e.side !== -1) return was('side', '1 or -1', e.side);
      if (!isStr(e.tradeId)) return was('tradeId', 'a string', e.tradeId);
      if (!isNullable(e.buyer, isStr)) return was('buyer', 'a string or null', e.buyer);
      return isNullable(e.seller, isStr) ? null : was('seller', 'a string or null', e.seller);
    case 'book':
      return levelsError(e.bids, 'bids') ?? levelsError(e.asks, 'asks');
    case 'ctx':
      // A recorded live start carries its pre-backfill contexts marked; nothing else is a mark.
      if (e.beforeFill !== undefined && e.beforeFill !== true) {
        return was('beforeFill', 'true or absent', e.beforeFill);
      }
      return ctxError(e, '');
    case 'gap':
      return isStr(e.reason) ? null : was('reason', 'a string', e.reason);
    case 'candle':
      if (!isPos(e.intervalMs)) return was('intervalMs', 'a positive number', e.intervalMs);
      for (const k of ['open', 'high', 'low', 'close'] as const) {
        if (!isPos(e[k])) return was(k, 'a positive number', e[k]);
      }
      if (!((e.low as number) <= Math.min(e.open as number, e.close as number) &&
        (e.high as number) >= Math.max(e.open as number, e.close as number))) {
        return was('high', 'the highest and low the lowest of the candle', e.high);
      }
      return isNum(e.volume) && (e.volume as number) >= 0 ? null
        : was('volume', 'a number >= 0', e.volume);
    case 'funding':
      if (!Array.isArray(e.venues)) return was('venues', 'an array', e.venues);
      for (const v of e.venues) {
        if (!isRecord(v) || !VENUES.includes(v.venue as never) || !isNum(v.rate) ||
          !isPos(v.intervalHours)) return was('venues', '{venue, rate, intervalHours}', v);
      }
      return null;
    case 'universe':
      if (!Array.isArray(e.markets)) return was('markets', 'an array', e.markets);
      for (const m of e.markets) {
        if (!isRecord(m) || !isStr(m.symbol) || !isRecord(m.ctx)) {
          return was('markets', '{symbol, ctx, ...} entries', m);
        }
        const bad = ctxError(m.ctx, `markets[${m.symbol}].ctx.`);
        if (bad) return bad;
      }
      return null;
    case 'wallet':
      if (!isStr(e.address)) return was('address', 'a string', e.address);
      return Array.isArray(e.positions) ? null : was('positions', 'an array', e.positions);
    default:
      return was('type', 'a market event type', e.type);
  }
}

export function validateEvent(raw: unknown): MarketEvent | string {
  if (!isRecord(raw)) return 'expected a JSON object';
  if (!isPos(raw.tsMs)) return was('tsMs', 'epoch milliseconds', raw.tsMs);
  const hasSymbol = raw.type !== 'universe' && raw.type !== 'wallet';
  if (hasSymbol && !isStr(raw.symbol)) return was('symbol', 'a string', raw.symbol);
  const error = eventError(raw);
  return error ?? (raw as unknown as MarketEvent);
}
