// Parses an alert's options from text (the CLI's flags), naming the field, what was expected
// and what was found. Operating errors are values, never throws.
import { TIMEFRAMES, type Timeframe } from '../../core/messages.js';
import {
  ALERT_KINDS, DEFAULT_COOLDOWN_MS, SCREENER_FIELDS, type AlertKind, type AlertSpec,
  type DrawingPoint, type ScreenerField,
} from './alert-types.js';
import { isGrade } from './grade.js';

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };
export type AlertInput = Readonly<Record<string, string | undefined>>;

class FieldError extends Error {}
function fail(field: string, expected: string, found: unknown): never {
  throw new FieldError(`${field} must be ${expected} (was ${found === undefined ? 'missing'
    : JSON.stringify(found)})`);
}

const SYMBOL = /^[A-Za-z0-9]{1,24}(:[A-Za-z0-9]{1,24})?$/;
export const ENTRY_SYMBOLS_MAX = 200;

function symbolOf(input: AlertInput, allowAll = false): string {
  const value = input.symbol;
  if (allowAll && value === 'all') return value;
  if (value === undefined || !SYMBOL.test(value)) {
    fail('symbol', allowAll ? 'a pair symbol or all' : 'a pair symbol (BTC, xyz:TSLA)', value);
  }
  return value;
}

function positive(field: string, text: string | undefined): number {
  const value = Number(text);
  if (text === undefined || text.trim() === '' || !(value > 0) || !Number.isFinite(value)) {
    fail(field, 'a positive number', text);
  }
  return value;
}

function finite(field: string, text: string | undefined): number {
  const value = Number(text);
  if (text === undefined || text.trim() === '' || !Number.isFinite(value)) {
    fail(field, 'a number', text);
  }
  return value;
}

function oneOf<T extends string>(field: string, text: string | undefined,
  allowed: readonly T[], fallback?: T): T {
  if (text === undefined && fallback !== undefined) return fallback;
  if (!(allowed as readonly (string | undefined)[]).includes(text)) {
    fail(field, `one of ${allowed.join(', ')}`, text);
  }
  return text as T;
}

const UNIT_MS: Record<string, number> = { ms: 1, s: 1e3, m: 6e4, h: 3.6e6, d: 8.64e7 };

/** `90s`, `15m`, `1h`, `1d`, `250ms` or plain milliseconds; at most 30 days. */
export function parseDurationMs(field: string, text: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)?$/.exec(text.trim());
  const ms = match ? Number(match[1]) * UNIT_MS[match[2] ?? 'ms'] : NaN;
  if (!(ms >= 0 && ms <= 30 * 8.64e7)) fail(field, 'a duration such as 90s, 15m, 1h', text);
  return Math.round(ms);
}

function pointOf(field: string, text: string | undefined): DrawingPoint {
  const [time, price] = (text ?? '').split(',');
  const timeMs = Date.parse(time ?? '');
  if (text === undefined || !Number.isFinite(timeMs) || !(Number(price) > 0)) {
    fail(field, 'TIME,PRICE with an ISO 8601 time and a positive price', text);
  }
  return { timeMs, price: Number(price) };
}

function entrySignalSpec(input: AlertInput): AlertSpec {
  const symbolsText = input.symbols ?? 'all';
  const list = symbolsText === 'all' ? 'all' as const : symbolsText.split(',').map((s) => s.trim());
  if (list !== 'all' && (list.length > ENTRY_SYMBOLS_MAX || !list.every((s) => SYMBOL.test(s)))) {
    fail('symbols', `all or up to ${ENTRY_SYMBOLS_MAX} comma-separated symbols`, symbolsText);
  }
  const tfText = input.timeframes ?? TIMEFRAMES.join(',');
  const timeframes = [...new Set(tfText.split(',').map((s) => s.trim()))];
  if (!timeframes.every((tf) => (TIMEFRAMES as readonly string[]).includes(tf))) {
    fail('timeframes', `a comma-separated list of ${TIMEFRAMES.join(', ')}`, tfText);
  }
  const minGrade = input.minGrade ?? 'B';
  if (!isGrade(minGrade)) fail('min-grade', 'one of A+, A, B, C, D', minGrade);
  return { kind: 'entry_signal', symbols: list, timeframes: timeframes as Timeframe[], minGrade };
}

function screenerSpec(input: AlertInput): AlertSpec {
  const symbol = symbolOf(input, true);
  const field = oneOf<ScreenerField>('field', input.field, SCREENER_FIELDS);
  if ((input.above === undefined) === (input.below === undefined)) {
    fail('above/below', 'exactly one of them', input.above ?? input.below);
  }
  const condition = input.above !== undefined ? 'above' : 'below';
  const value = finite(condition, input.above ?? input.below);
  return { kind: 'screener', symbol, field, condition, value };
}

function specOf(kind: AlertKind, input: AlertInput): AlertSpec {
  const timeframe = () => oneOf<Timeframe>('timeframe', input.timeframe, TIMEFRAMES, '5m');
  switch (kind) {
    case 'entry_signal': return entrySignalSpec(input);
    case 'screener': return screenerSpec(input);
    case 'price': return { kind, symbol: symbolOf(input), level: positive('level', input.level),
      direction: oneOf('direction', input.direction, ['above', 'below'] as const) };
    case 'sweep': return { kind, symbol: symbolOf(input), level: positive('level', input.level),
      side: oneOf('side', input.side, ['high', 'low'] as const), timeframe: timeframe() };
    case 'delta_flip': {
      const windowBars = Number(input.window ?? '3');
      if (!Number.isInteger(windowBars) || windowBars < 1 || windowBars > 100) {
        fail('window', 'an integer number of bars from 1 to 100', input.window);
      }
      return { kind, symbol: symbolOf(input), timeframe: timeframe(), windowBars,
        direction: oneOf('direction', input.direction, ['any', 'up', 'down'] as const, 'any') };
    }
    case 'drawing': {
      const point1 = pointOf('point1', input.point1);
      const point2 = pointOf('point2', input.point2);
      if (point1.timeMs === point2.timeMs) fail('point2', 'a time other than point1', input.point2);
      return { kind, symbol: symbolOf(input), point1, point2,
        direction: oneOf('direction', input.direction, ['any', 'above', 'below'] as const, 'any') };
    }
  }
}

/** The kind-specific spec and the cooldown of an alert, from text options. */
export function parseAlertSpec(kind: string, input: AlertInput):
  Parsed<{ spec: AlertSpec; cooldownMs: number }> {
  try {
    const checkedKind = oneOf<AlertKind>('kind', kind, ALERT_KINDS);
    const spec = specOf(checkedKind, input);
    const cooldownMs = input.cooldown === undefined ? DEFAULT_COOLDOWN_MS[checkedKind]
      : parseDurationMs('cooldown', input.cooldown);
    return { ok: true, value: { spec, cooldownMs } };
  } catch (error) {
    if (error instanceof FieldError) return { ok: false, error: error.message };
    throw error;
  }
}
