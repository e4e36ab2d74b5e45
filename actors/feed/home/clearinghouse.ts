// Parses the home venue's `clearinghouseState` info response (one wallet's account) into a
// WalletStateEvent. Decimals arrive as strings; a malformed field is an error value naming it.
import type { WalletPosition, WalletStateEvent } from '../../../core/messages.js';
import {
  failure, normalizeAddress, positioningErrors as errors, success, type ParseResult,
} from '../../positioning/errors.js';

/** Positions per account at most; a larger response is refused, not truncated. */
export const clearinghousePositionsMax = 1_000;

type Raw = Record<string, unknown>;

const isObject = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A decimal given as a string (the venue's way) or a number. */
function decimal(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'string' || value.trim() === '') return null;
  const parsed = Number(value);
  return Number.isFinite(parsed) ? parsed : null;
}

/**
 * address: the wallet asked about (the response does not repeat it). tsMs: the response's own
 * `time` when present, else the caller's receive time. Zero-size positions are dropped.
 */
export function parseClearinghouseState(body: unknown, address: string, tsMs: number):
  ParseResult<WalletStateEvent> {
  const wallet = normalizeAddress(address);
  if (wallet === null) return failure(errors.invalidField('address', '0x + 40 hex', address));
  if (!isObject(body)) return failure(errors.invalidField('clearinghouseState', 'an object', body));
  const summary = body.marginSummary;
  const accountValue = isObject(summary) ? decimal(summary.accountValue) : null;
  if (accountValue === null) {
    return failure(errors.invalidField('clearinghouseState.marginSummary.accountValue',
      'a decimal', isObject(summary) ? summary.accountValue : summary));
  }
  const raw = body.assetPositions;
  if (!Array.isArray(raw)) {
    return failure(errors.invalidField('clearinghouseState.assetPositions', 'an array', raw));
  }
  if (raw.length > clearinghousePositionsMax) {
    return failure(errors.tooMany('clearinghouseState.assetPositions',
      clearinghousePositionsMax, raw.length));
  }
  const positions: WalletPosition[] = [];
  for (const [i, item] of raw.entries()) {
    const parsed = parsePosition(item, `clearinghouseState.assetPositions[${i}].position`);
    if (!parsed.ok) return failure(parsed.error);
    if (parsed.value.size !== 0) positions.push(parsed.value);
  }
  const time = decimal(body.time);
  return success({
    type: 'wallet', tsMs: time !== null && time > 0 ? time : tsMs, address: wallet,
    accountValue, positions,
  });
}

/** The same, in the shape of the universe feed's `parseWallet` hook: null when malformed. */
export function clearinghouseToWallet(body: unknown, address: string, tsMs: number):
  WalletStateEvent | null {
  const result = parseClearinghouseState(body, address, tsMs);
  return result.ok ? result.value : null;
}

function parsePosition(item: unknown, at: string): ParseResult<WalletPosition> {
  const p = isObject(item) ? item.position : undefined;
  if (!isObject(p)) return failure(errors.invalidField(at, 'an object', p));
  if (typeof p.coin !== 'string' || p.coin.length === 0) {
    return failure(errors.invalidField(`${at}.coin`, 'a symbol', p.coin));
  }
  const fields = ['szi', 'entryPx', 'positionValue', 'unrealizedPnl', 'marginUsed'] as const;
  const values: Partial<Record<(typeof fields)[number], number>> = {};
  for (const field of fields) {
    const value = decimal(p[field]);
    if (value === null) {
      return failure(errors.invalidField(`${at}.${field}`, 'a decimal', p[field]));
    }
    values[field] = value;
  }
  const leverage = p.leverage;
  const type = isObject(leverage) ? leverage.type : undefined;
  const value = isObject(leverage) ? decimal(leverage.value) : null;
  if ((type !== 'cross' && type !== 'isolated') || value === null || value <= 0) {
    return failure(errors.invalidField(`${at}.leverage`,
      '{ type: cross|isolated, value > 0 }', leverage));
  }
  const liquidationPx = p.liquidationPx === null ? null : decimal(p.liquidationPx);
  if (p.liquidationPx !== null && liquidationPx === null) {
    return failure(errors.invalidField(`${at}.liquidationPx`, 'a decimal or null',
      p.liquidationPx));
  }
  return success({
    symbol: p.coin, size: values.szi!, entryPx: values.entryPx!, leverage: value,
    leverageType: type, positionValue: values.positionValue!, unrealizedPnl: values.unrealizedPnl!,
    liquidationPx, marginUsed: values.marginUsed!,
  });
}
