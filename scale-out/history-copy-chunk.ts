// What travels in a bulk copy of ingest's history to a front (docs/scale-out.md, "History on the
// fronts"): the front's ask for one chunk, and the chunk ingest reads from its store for it. A
// copy walks the symbols in order, each symbol's rolled 1-hour points and then its 1-minute
// points in [fromMs, toMs); the cursor says where the next chunk starts, so a chunk is bounded
// and a copy stopped anywhere (Redis away, ingest away, front restarted) goes on from its cursor.
import { HOUR_MS, MINUTE_MS, type HistoryPoint } from '../core/history-point.js';
import type { HistoryStore } from '../persistence/history.js';
import { UsageError } from '../core/usage-error.js';

export interface CopyCursor {
  /** The next chunk starts at this symbol ('' before the first)... */
  readonly symbol: string;
  /** ...in its hours ('h') or its minutes ('m')... */
  readonly part: 'h' | 'm';
  /** ...at this time (inclusive). */
  readonly tMs: number;
}

/** A front's ask for the next chunk (JSON on the ask channel). */
export interface CopyAsk {
  /** The key ingest writes the chunk under (random per ask: a late answer to an earlier ask
   *  is never taken for this one). */
  readonly key: string;
  readonly fromMs: number;
  readonly toMs: number;
  /** Per pair, a later start than fromMs (rangeStartMs). */
  readonly startsMs?: Readonly<Record<string, number>>;
  readonly cursor: CopyCursor;
  /** Points the chunk may hold (ingest holds it to copyChunkPointsMax). */
  readonly pointsMax: number;
}

export interface CopyChunk {
  readonly minutes: HistoryPoint[];
  readonly hours: HistoryPoint[];
  /** Where the next chunk starts; null when the range is done. */
  readonly next: CopyCursor | null;
}

/** Points one chunk holds at most (~140 bytes each in msgpack: ~140 KB a chunk). */
export const copyChunkPointsMax = 1_000;
/**
 * Points a front asks for by default: a chunk short to read and pack on ingest and to apply on
 * the front; larger ones barely copy faster and hold the event loop longer, smaller ones copy
 * slower (bench/README.md, "History copy").
 */
export const copyChunkPointsDefault = 500;

/** Points a front asks for per chunk (ORDERFLOW_HISTORY_COPY_CHUNK_POINTS, 1 to 1000). */
export function copyChunkPoints(env: Readonly<Record<string, string | undefined>>): number {
  const text = env.ORDERFLOW_HISTORY_COPY_CHUNK_POINTS;
  if (text === undefined || text === '') return copyChunkPointsDefault;
  const points = Number(text);
  if (!Number.isInteger(points) || points < 1 || points > copyChunkPointsMax) {
    throw new UsageError('ORDERFLOW_HISTORY_COPY_CHUNK_POINTS must be an integer from 1 to ' +
      `${copyChunkPointsMax} (was '${text}')`);
  }
  return points;
}

export function firstCursor(fromMs: number): CopyCursor {
  return { symbol: '', part: 'h', tMs: fromMs };
}

const isTime = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);

/**
 * Where a range starts for one pair: its own start when the range has one (a front that held
 * the pair up to there), else fromMs. A front's gap starts at each pair's own newest minute,
 * not at the newest of all: pairs close their minutes at their own events, so a trimmed entry
 * can hold one pair's minute older than another pair's newest the front already has.
 */
export function rangeStartMs(range: { readonly fromMs: number;
  readonly startsMs?: Readonly<Record<string, number>> }, symbol: string): number {
  return Math.max(range.fromMs, range.startsMs?.[symbol] ?? range.fromMs);
}

const isStarts = (v: unknown): boolean => v === undefined ||
  (typeof v === 'object' && v !== null && !Array.isArray(v) && Object.values(v).every(isTime));

/** The ask in a message, or null when it is not one (a message from another version). */
export function parseAsk(text: string): CopyAsk | null {
  let ask: Partial<CopyAsk>;
  try {
    ask = JSON.parse(text) as Partial<CopyAsk>;
  } catch {
    return null;
  }
  const c = ask?.cursor;
  const fine = typeof ask?.key === 'string' && ask.key.startsWith('orderflow:history-copy:') &&
    isTime(ask.fromMs) && isTime(ask.toMs) && isStarts(ask.startsMs) &&
    Number.isInteger(ask.pointsMax) &&
    ask.pointsMax! >= 1 && typeof c?.symbol === 'string' &&
    (c.part === 'h' || c.part === 'm') && isTime(c.tMs);
  return fine ? ask as CopyAsk : null;
}

/** Reads the chunk an ask wants from ingest's store: at most copyChunkPointsMax points. */
export function readCopyChunk(store: HistoryStore, ask: CopyAsk): CopyChunk {
  const { toMs, cursor } = ask;
  const pointsMax = Math.min(ask.pointsMax, copyChunkPointsMax);
  const minutes: HistoryPoint[] = [];
  const hours: HistoryPoint[] = [];
  for (const symbol of store.symbols()) {
    if (symbol < cursor.symbol) continue;
    const here = symbol === cursor.symbol;
    const fromMs = rangeStartMs(ask, symbol);
    if (!here || cursor.part === 'h') {
      const startMs = here ? Math.max(fromMs, cursor.tMs) : fromMs;
      // Hours from the one holding fromMs: a front's partial hour there is replaced whole.
      const room = pointsMax - minutes.length - hours.length;
      const got = store.rolledHours(symbol, startMs - (startMs % HOUR_MS), toMs, room);
      hours.push(...got);
      if (got.length === room) {
        return { minutes, hours, next: { symbol, part: 'h', tMs: got[room - 1]!.tMs + HOUR_MS } };
      }
    }
    const startMs = here && cursor.part === 'm' ? Math.max(fromMs, cursor.tMs) : fromMs;
    const room = pointsMax - minutes.length - hours.length;
    const got = store.minutes(symbol, startMs, toMs, room);
    minutes.push(...got);
    if (got.length === room) {
      return { minutes, hours, next: { symbol, part: 'm', tMs: got[room - 1]!.tMs + MINUTE_MS } };
    }
  }
  return { minutes, hours, next: null };
}
