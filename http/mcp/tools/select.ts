// Pure selection over the served views: filter, sort, limit. No I/O, no clock.
import { numberAt, stringAt, isRow, type Row } from './records.js';
import type {
  FundingArbArgs, ScreenerArgs, SignalsArgs, SmartMoneyArgs,
} from './schemas.js';

export interface Selection {
  readonly items: Row[];
  /** Items that matched before the limit. */
  readonly total: number;
}

/** Sorts by a numeric field, missing values last whatever the order; ties by symbol. */
export function byNumber(field: string, order: 'asc' | 'desc', magnitude = false) {
  const sign = order === 'asc' ? 1 : -1;
  const key = (row: Row) => {
    const value = numberAt(row, field);
    return value === null ? null : magnitude ? Math.abs(value) : value;
  };
  return (a: Row, b: Row): number => {
    const x = key(a);
    const y = key(b);
    if (x === null || y === null) return x === y ? bySymbol(a, b) : x === null ? 1 : -1;
    return x === y ? bySymbol(a, b) : sign * (x - y);
  };
}

export function bySymbol(a: Row, b: Row): number {
  return (stringAt(a, 'symbol') ?? '').localeCompare(stringAt(b, 'symbol') ?? '');
}

function symbolSet(symbols: readonly string[] | undefined): Set<string> | null {
  return symbols ? new Set(symbols.map((s) => s.toLowerCase())) : null;
}

function inSet(row: Row, set: Set<string> | null): boolean {
  return set === null || set.has((stringAt(row, 'symbol') ?? '').toLowerCase());
}

function take(rows: Row[], compare: (a: Row, b: Row) => number, limit: number): Selection {
  rows.sort(compare);
  return { items: rows.slice(0, limit), total: rows.length };
}

export function selectPairs(pairs: readonly Row[], args: ScreenerArgs): Selection {
  const wanted = symbolSet(args.symbols);
  const minVolume = args.minVolume24h ?? null;
  const rows = pairs.filter((row) => inSet(row, wanted) &&
    (minVolume === null || (numberAt(row, 'volume24h') ?? 0) >= minVolume));
  const compare = args.sort === 'symbol'
    ? (a: Row, b: Row) => (args.order === 'asc' ? 1 : -1) * bySymbol(a, b)
    : byNumber(args.sort, args.order);
  return take(rows, compare, args.limit);
}

/** Signals arrive keyed per pair; each entry becomes one row carrying its symbol. */
export function selectSignals(view: Row, args: SignalsArgs): Selection {
  const wanted = symbolSet(args.symbols);
  const rows: Row[] = [];
  for (const [symbol, entry] of Object.entries(view)) {
    if (!isRow(entry)) continue;
    const row: Row = { symbol, ...entry };
    const score = numberAt(row, 'score');
    if (!inSet(row, wanted)) continue;
    if (args.direction && stringAt(row, 'direction') !== args.direction) continue;
    if (args.regime && stringAt(row, 'regime') !== args.regime) continue;
    if (args.minAbsScore !== undefined && (score === null || Math.abs(score) < args.minAbsScore)) {
      continue;
    }
    rows.push(row);
  }
  const compare = args.sort === 'symbol' ? bySymbol
    : args.sort === 'strength' ? byNumber('score', 'desc', true)
    : byNumber(args.sort, 'desc');
  return take(rows, compare, args.limit);
}

export function selectPositions(positions: readonly Row[], args: SmartMoneyArgs): Selection {
  const wanted = symbolSet(args.symbol === undefined ? undefined : [args.symbol]);
  const rows = positions.filter((row) => inSet(row, wanted) &&
    (!args.side || stringAt(row, 'side') === args.side) &&
    (!args.category || stringAt(row, 'category') === args.category) &&
    (args.minNotional === undefined ||
      Math.abs(numberAt(row, 'notional') ?? 0) >= args.minNotional));
  return take(rows, byNumber('notional', 'desc', true), args.limit);
}

export function selectArb(pairs: readonly Row[], args: FundingArbArgs): Selection {
  const wanted = symbolSet(args.symbols);
  const minSpread = args.minSpreadAnnualized;
  const rows = pairs.filter((row) => inSet(row, wanted) &&
    (minSpread === undefined || (numberAt(row, 'spreadAnnualized') ?? -Infinity) >= minSpread));
  return take(rows, byNumber('spreadAnnualized', 'desc'), args.limit);
}
