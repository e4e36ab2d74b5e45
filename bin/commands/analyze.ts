// `orderflow analyze`: the same kernels the pair actors run, over a trades CSV and an optional
// book NDJSON file; prints each metric's final value and its series (JSON with --json).
import type { Command, CommandIo } from '../cli.js';
import { parseOptions, UsageError } from '../cli.js';
import { readBookNdjson, type BookRow } from '../../actors/feed/book-ndjson.js';
import { readTradesCsv, type TradeColumns } from '../../actors/feed/trades-csv.js';
import * as cvd from '../../kernels/cvd.js';
import * as kyle from '../../kernels/kyle.js';
import * as obi from '../../kernels/obi.js';
import * as ofi from '../../kernels/ofi.js';
import { CVD_INTERVAL_MS, CVD_INTERVALS } from '../../kernels/timeframes.js';
import * as vpin from '../../kernels/vpin.js';

const METRICS = ['cvd', 'vpin', 'obi', 'ofi', 'kyle'] as const;
type Metric = (typeof METRICS)[number];

const usage = `usage: orderflow analyze --trades FILE.csv [--book FILE.ndjson]
                        [--metric cvd|vpin|obi|ofi|kyle|all] [options] [--json]

Runs the orderflow kernels over recorded data and prints each metric's final value and series.
The trades CSV has a header and the columns time_ms,price,size,side (side B or S, the
aggressor); the derived Binance CSV (trade_time_ms,...,taker_side) is read too. The book file
has one {"tsMs","bids":[px,sz,...],"asks":[...]} per line, best level first; lines of a replay
file with another "type" are skipped. obi and ofi need --book.

options (defaults in brackets):
  --metric M               cvd, vpin, obi, ofi, kyle or all [all]
  --json                   print JSON
  --series-limit N         newest series points printed per metric [1000]
  --cvd-interval I         CVD series interval: 1m, 5m, 15m or 1h [1m]
  --cvd-rolling-minutes N  rolling CVD window [1440]
  --bucket-volume V        VPIN bucket volume, base units [ADV / buckets-per-day, from the file]
  --buckets-per-day N      buckets per average day when V is derived [50]
  --window N               VPIN window, buckets [50]
  --mode M                 VPIN classification: aggressor or bvc [aggressor]
  --bvc-bar-ms N           BVC time bar [60000]
  --bvc-nu N               BVC Student-t degrees of freedom; 0 = normal [0]
  --bvc-sigma-bars N       BVC sigma over this many trailing bars [1440]
  --levels N               OBI top-k and OFI levels [10]
  --band-pct X             OBI band around mid, percent [0.5]
  --interval-ms N          OFI aggregation interval [10000]
  --kyle-interval-ms N     Kyle interval [60000]
  --kyle-window N          Kyle rolling window, intervals [30]
  --kyle-min-intervals N   intervals before lambda is reported [20]
  --kyle-flow F            notional (bps per $1M) or hasbrouck [notional]

Bad files give a line-numbered error and exit code 2.
`;

const optionSpec = {
  trades: { type: 'string' }, book: { type: 'string' }, metric: { type: 'string' },
  json: { type: 'boolean' }, 'series-limit': { type: 'string' },
  'cvd-interval': { type: 'string' }, 'cvd-rolling-minutes': { type: 'string' },
  'bucket-volume': { type: 'string' }, 'buckets-per-day': { type: 'string' },
  window: { type: 'string' }, mode: { type: 'string' }, 'bvc-bar-ms': { type: 'string' },
  'bvc-nu': { type: 'string' }, 'bvc-sigma-bars': { type: 'string' },
  levels: { type: 'string' }, 'band-pct': { type: 'string' }, 'interval-ms': { type: 'string' },
  'kyle-interval-ms': { type: 'string' }, 'kyle-window': { type: 'string' },
  'kyle-min-intervals': { type: 'string' }, 'kyle-flow': { type: 'string' },
} as const;

type Values = ReturnType<typeof parseOptions<typeof optionSpec>>['values'];

/** A numeric option: absent gives the default; anything but a number in range is refused. */
function num(values: Values, name: keyof Values, fallback: number, min: number, max: number,
  integer = true): number {
  const raw = values[name];
  if (raw === undefined) return fallback;
  const v = Number(raw);
  if (typeof raw !== 'string' || raw.trim() === '' || !Number.isFinite(v) || v < min ||
    v > max || (integer && !Number.isInteger(v))) {
    throw new UsageError(`--${name} must be ${integer ? 'an integer' : 'a number'} from ${min} ` +
      `to ${max} (was ${JSON.stringify(raw)})`);
  }
  return v;
}

function oneOf<T extends string>(values: Values, name: keyof Values, allowed: readonly T[],
  fallback: T): T {
  const raw = values[name];
  if (raw === undefined) return fallback;
  if (!allowed.includes(raw as T)) {
    throw new UsageError(`--${name} must be one of ${allowed.join(', ')} ` +
      `(was ${JSON.stringify(raw)})`);
  }
  return raw as T;
}

/** The newest `limit` points, with how many there were. */
function tail<T>(series: T[], limit: number): { series: T[]; seriesTotal: number } {
  return { series: series.slice(Math.max(0, series.length - limit)), seriesTotal: series.length };
}

function runCvd(t: TradeColumns, v: Values, limit: number) {
  const interval = oneOf(v, 'cvd-interval', CVD_INTERVALS, '1m');
  const i = CVD_INTERVALS.indexOf(interval);
  const spanMs = t.count > 0 ? t.tsMs[t.count - 1] - t.tsMs[0] : 0;
  const points = Math.min(1_000_000, Math.ceil(spanMs / CVD_INTERVAL_MS[i]) + 2);
  const rollingMinutes = num(v, 'cvd-rolling-minutes', 1440, 1, 100_000);
  const s = cvd.createCvdState({ historyPoints: points, rollingMinutes });
  for (let k = 0; k < t.count; k++) cvd.updateCvd(s, t.tsMs[k], t.price[k], t.size[k], t.side[k]);
  const ts = new Float64Array(points); const c = new Float64Array(points);
  const d = new Float64Array(points);
  const n = cvd.readCvdHistory(s, i, points, ts, c, d);
  const series = Array.from({ length: n }, (_, k) => ({ tsMs: ts[k], cvd: c[k], delta: d[k] }));
  return {
    final: cvd.snapshotCvd(s, { cvd: null, cvdRolling: null, trades: 0 }),
    params: { reset: 'utc-day', rollingMinutes, interval },
    ...tail(series, limit),
  };
}

function bucketVolumeOf(t: TradeColumns, v: Values): { volume: number; source: string } {
  if (v['bucket-volume'] !== undefined) {
    return { volume: num(v, 'bucket-volume', 0, 1e-12, 1e15, false), source: 'option' };
  }
  const perDay = num(v, 'buckets-per-day', 50, 1, 100_000);
  let total = 0;
  for (let k = 0; k < t.count; k++) total += t.size[k];
  // ADV from the file: its volume scaled to one day (at least one millisecond of span).
  const days = Math.max(1, t.tsMs[t.count - 1] - t.tsMs[0]) / 86_400_000;
  return { volume: total / days / perDay, source: `ADV / ${perDay} (ADV from the file)` };
}

function runVpin(t: TradeColumns, v: Values, limit: number) {
  const bucket = bucketVolumeOf(t, v);
  const options: vpin.VpinOptions = {
    bucketVolume: bucket.volume, windowBuckets: num(v, 'window', 50, 1, 10_000),
    mode: oneOf(v, 'mode', ['aggressor', 'bvc'] as const, 'aggressor'),
    bvcBarMs: num(v, 'bvc-bar-ms', 60_000, 1, 86_400_000),
    bvcDegreesOfFreedom: num(v, 'bvc-nu', 0, 0, 1e6, false),
    bvcSigmaBars: num(v, 'bvc-sigma-bars', 1440, 2, 1_000_000),
  };
  const s = vpin.createVpinState(options);
  const series: { tsMs: number; vpin: number }[] = [];
  const collect = () => {
    const b = s.buckets;
    for (let k = 0; k < b.newCount; k++) {
      const at = (b.head - b.newCount + k + 2 * b.windowBuckets) % b.windowBuckets;
      series.push({ tsMs: b.bucketEndMs[at], vpin: b.newValues[k] });
    }
  };
  for (let k = 0; k < t.count; k++) {
    vpin.updateVpin(s, t.tsMs[k], t.price[k], t.size[k], t.side[k]);
    collect();
  }
  // The file's last BVC bar is as complete as the data: classify it too.
  vpin.advanceVpin(s, t.tsMs[t.count - 1] + options.bvcBarMs);
  collect();
  return {
    final: vpin.snapshotVpin(s, { vpin: null, bucketsCompleted: 0, bucketVolume: 0 }),
    params: { ...options, bucketVolumeSource: bucket.source },
    ...tail(series, limit),
  };
}

function runObi(books: BookRow[], v: Values, limit: number) {
  const options = { levels: num(v, 'levels', 10, 1, 1000), bandPct: num(v, 'band-pct', 0.5, 1e-6,
    100, false) };
  const s = obi.createObiState(options);
  const out: obi.ObiSnapshot = { obi: null, obiTopK: null, mid: null, books: 0 };
  const series = books.map((b) => {
    obi.updateObi(s, b.tsMs, b.bidPx, b.bidSz, b.bidPx.length, b.askPx, b.askSz, b.askPx.length);
    obi.snapshotObi(s, out);
    return { tsMs: b.tsMs, obi: out.obi, obiTopK: out.obiTopK };
  });
  return { final: obi.snapshotObi(s, out), params: options, ...tail(series, limit) };
}

function runOfi(books: BookRow[], v: Values, limit: number) {
  const levels = num(v, 'levels', 10, 1, 1000);
  const intervalMs = num(v, 'interval-ms', 10_000, 1, 86_400_000);
  const spanMs = books.length > 0 ? books[books.length - 1].tsMs - books[0].tsMs : 0;
  const historyIntervals = Math.min(1_000_000, Math.ceil(spanMs / intervalMs) + 2);
  const s = ofi.createOfiState({ levels, intervalMs, historyIntervals });
  for (const b of books) {
    ofi.updateOfi(s, b.tsMs, b.bidPx, b.bidSz, b.bidPx.length, b.askPx, b.askSz, b.askPx.length);
  }
  const series = Array.from({ length: s.count }, (_, k) => {
    const at = (s.head - s.count + k + historyIntervals) % historyIntervals;
    return {
      tsMs: s.historyTsMs[at], ofi: s.historyOfi[at * levels],
      levels: Array.from(s.historyOfi.subarray(at * levels, (at + 1) * levels)),
    };
  });
  const final = ofi.snapshotOfi(s, ofi.createOfiSnapshot(levels));
  return {
    final: { ofi: final.ofi, ofiOpen: final.ofiOpen, ofiLevels: final.ofi === null ? null
      : Array.from(final.ofiLevels), intervals: final.intervals },
    params: { levels, intervalMs }, ...tail(series, limit),
  };
}

function runKyle(t: TradeColumns, v: Values, limit: number) {
  const windowIntervals = num(v, 'kyle-window', 30, 3, 100_000);
  const options: kyle.KyleOptions = {
    intervalMs: num(v, 'kyle-interval-ms', 60_000, 1, 86_400_000), windowIntervals,
    minIntervals: num(v, 'kyle-min-intervals', Math.min(20, windowIntervals), 3, windowIntervals),
    flow: oneOf(v, 'kyle-flow', ['notional', 'hasbrouck'] as const, 'notional'),
  };
  const s = kyle.createKyleState(options);
  const out: kyle.KyleSnapshot = { kyleLambda: null, intercept: null, intervals: 0 };
  const series: { tsMs: number; kyleLambda: number | null }[] = [];
  for (let k = 0; k < t.count; k++) {
    if (kyle.updateKyle(s, t.tsMs[k], t.price[k], t.size[k], t.side[k])) {
      series.push({ tsMs: s.intervalEndMs - options.intervalMs, kyleLambda: kyle.snapshotKyle(s,
        out).kyleLambda });
    }
  }
  return { final: kyle.snapshotKyle(s, out), params: options, ...tail(series, limit) };
}

async function load(v: Values, metrics: readonly Metric[]) {
  const needsTrades = metrics.some((m) => m === 'cvd' || m === 'vpin' || m === 'kyle');
  const needsBook = metrics.some((m) => m === 'obi' || m === 'ofi');
  if (needsTrades && v.trades === undefined) throw new UsageError('--trades FILE.csv is required');
  if (needsBook && v.book === undefined && metrics.length === 1) {
    throw new UsageError(`--metric ${metrics[0]} needs --book FILE.ndjson`);
  }
  let trades: TradeColumns | null = null;
  if (v.trades !== undefined) {
    const read = await readTradesCsv(v.trades);
    if (!read.ok) throw new UsageError(`${v.trades}: line ${read.line}: ${read.message}`);
    if (read.value.count === 0) throw new UsageError(`${v.trades}: no trades after the header`);
    trades = read.value;
  }
  let books: BookRow[] | null = null;
  if (v.book !== undefined) {
    const read = await readBookNdjson(v.book);
    if (!read.ok) throw new UsageError(`${v.book}: line ${read.line}: ${read.message}`);
    if (read.value.length === 0) throw new UsageError(`${v.book}: no book lines`);
    books = read.value;
  }
  return { trades, books };
}

function printText(io: CommandIo, report: Record<string, unknown>): void {
  const metrics = report.metrics as Record<string, { final: unknown; seriesTotal: number } | null>;
  io.stdout(`input: ${JSON.stringify(report.input)}\n`);
  for (const [name, m] of Object.entries(metrics)) {
    io.stdout(m === null ? `${name}: no book file (--book)\n`
      : `${name}: ${JSON.stringify(m.final)} (${m.seriesTotal} series points; --json for them)\n`);
  }
}

export const command: Command = {
  name: 'analyze',
  summary: 'run the orderflow kernels over a file',
  usage,
  async run(argv: readonly string[], io: CommandIo): Promise<number> {
    // Usage errors are printed here: under a CommonJS test runner the dispatcher can hold a
    // second copy of UsageError, and its instanceof check would turn exit 2 into 1.
    try {
      return await analyze(argv, io);
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      io.stderr(`orderflow analyze: ${error.message}\n`);
      return error.exitCode;
    }
  },
};

async function analyze(argv: readonly string[], io: CommandIo): Promise<number> {
  const { values } = parseOptions(argv, optionSpec);
  const metric = oneOf(values, 'metric', [...METRICS, 'all'] as const, 'all');
  const metrics: readonly Metric[] = metric === 'all' ? METRICS : [metric];
  const limit = num(values, 'series-limit', 1000, 0, 10_000_000);
  const { trades, books } = await load(values, metrics);
  const out: Record<string, unknown> = {};
  for (const m of metrics) {
    if (m === 'cvd') out.cvd = runCvd(trades!, values, limit);
    if (m === 'vpin') out.vpin = runVpin(trades!, values, limit);
    if (m === 'kyle') out.kyle = runKyle(trades!, values, limit);
    if (m === 'obi') out.obi = books ? runObi(books, values, limit) : null;
    if (m === 'ofi') out.ofi = books ? runOfi(books, values, limit) : null;
  }
  const report = {
    input: {
      trades: trades?.count ?? 0, tradesFormat: trades?.format ?? null,
      tradesFromMs: trades ? trades.tsMs[0] : null,
      tradesToMs: trades ? trades.tsMs[trades.count - 1] : null, books: books?.length ?? 0,
    },
    metrics: out,
  };
  if (values.json) io.stdout(`${JSON.stringify(report)}\n`);
  else printText(io, report);
  return 0;
}
