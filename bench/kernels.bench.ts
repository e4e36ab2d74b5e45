// Kernel bench: ns per update of each kernel, trades/s of the whole per-trade path and books/s
// of the book path, each against a baseline loop that only reads the same typed arrays in the
// same run; and the heap held by one tracked pair with 7 days of 5m bars.
// Every loop is its own function literal so each call site stays monomorphic.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { measure, printRows, quick as quickFlag, type ReportRow } from './harness.js';
import * as absorption from '../kernels/absorption.js';
import * as bars from '../kernels/bars.js';
import * as cvd from '../kernels/cvd.js';
import * as kyle from '../kernels/kyle.js';
import * as obi from '../kernels/obi.js';
import * as ofi from '../kernels/ofi.js';
import * as pair from '../kernels/index.js';
import * as vpin from '../kernels/vpin.js';
import * as whale from '../kernels/whale.js';

const TRADES = 1 << 18;
const BOOKS = 1024;
const LEVELS = 20;

function seeded(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 16807) % 2147483647) / 2147483647;
}

/** Seeded trades ~40 ms apart (1 in 8 in the same ms), a random walk, mixed sides. */
const tape = (() => {
  const r = seeded(42);
  const ts = new Float64Array(TRADES);
  const price = new Float64Array(TRADES);
  const size = new Float64Array(TRADES);
  const side = new Int8Array(TRADES);
  let t = 1_700_000_000_000;
  let p = 60_000;
  for (let i = 0; i < TRADES; i++) {
    t += r() < 0.125 ? 0 : Math.floor(r() * 80);
    p *= 1 + (r() - 0.5) * 2e-4;
    ts[i] = t;
    price[i] = p;
    size[i] = 0.001 + r() * r() * 2;
    side[i] = r() < 0.5 ? 1 : -1;
  }
  return { ts, price, size, side, spanMs: t - ts[0] + 1 };
})();
const { ts, price, size, side } = tape;
/**
 * VPIN's bucket volume as the service sets it (docs/analytics.md: V = ADV / 50): the tape's own
 * volume per day over 50. A much smaller V completes a bucket every few dozen trades and
 * measures the t-digest of vpinLevel far more often than a real pair ever updates it.
 */
const bucketVolume = (() => {
  let volume = 0;
  for (let i = 0; i < TRADES; i++) volume += size[i];
  return volume * (86_400_000 / tape.spanMs) / 50;
})();
let sink = 0;

/** A lap runs the whole tape once, shifted forward in time so each lap follows the last. */
type Lap = (shiftMs: number) => void;

function measureLaps(name: string, laps: number, runs: number, lap: Lap) {
  let done = 0;
  return measure(name, laps * TRADES, (ops) => {
    for (let k = 0; k < Math.max(1, Math.round(ops / TRADES)); k++) lap(tape.spanMs * done++);
  }, runs);
}

function tradeLaps(): [string, Lap][] {
  const c = cvd.createCvdState();
  const va = vpin.createVpinState({ ...vpin.defaultVpinOptions, bucketVolume });
  const vb = vpin.createVpinState({ ...vpin.defaultVpinOptions, bucketVolume, mode: 'bvc' });
  const b = bars.createBarsState();
  const w = whale.createWhaleState();
  const a = absorption.createAbsorptionState();
  const k = kyle.createKyleState();
  return [
    ['cvd', (s) => { for (let i = 0; i < TRADES; i++) cvd.updateCvd(c, ts[i] + s, price[i],
      size[i], side[i]); }],
    ['vpin aggressor', (s) => { for (let i = 0; i < TRADES; i++) vpin.updateVpin(va, ts[i] + s,
      price[i], size[i], side[i]); }],
    ['vpin bvc', (s) => { for (let i = 0; i < TRADES; i++) vpin.updateVpin(vb, ts[i] + s,
      price[i], size[i], side[i]); }],
    ['bars 5m/15m/1h', (s) => { for (let i = 0; i < TRADES; i++) bars.updateBars(b, ts[i] + s,
      price[i], size[i], side[i]); }],
    ['whale', (s) => { for (let i = 0; i < TRADES; i++) whale.updateWhale(w, ts[i] + s, price[i],
      size[i], side[i]); }],
    ['absorption', (s) => { for (let i = 0; i < TRADES; i++) absorption.updateAbsorption(a,
      ts[i] + s, price[i], size[i], side[i]); }],
    ['kyle', (s) => { for (let i = 0; i < TRADES; i++) kyle.updateKyle(k, ts[i] + s, price[i],
      size[i], side[i]); }],
  ];
}

function row(figure: string, unit: string, value: number, baseline: number, target: string,
  pass: boolean | null): ReportRow {
  return { bench: 'kernels', figure, value, unit, baseline, ratio: value / baseline, target, pass };
}

function tradeRows(laps: number, runs: number): ReportRow[] {
  const baseline = measureLaps('baseline', laps, runs, (s) => {
    for (let i = 0; i < TRADES; i++) sink += ts[i] + s + price[i] * size[i] * side[i];
  });
  const rows = tradeLaps().map(([name, lap]) =>
    row(name, 'ns/update', measureLaps(name, laps, runs, lap).nsPerOp, baseline.nsPerOp, '-',
      null));
  const state = pair.createPairAnalytics({ vpinBucketVolume: bucketVolume });
  const whole = measureLaps('trade path', laps, runs, (s) => {
    for (let i = 0; i < TRADES; i++) pair.onTrade(state, ts[i] + s, price[i], size[i], side[i]);
  });
  const ratio = whole.nsPerOp / baseline.nsPerOp;
  rows.push(row('trade path (pair onTrade: all trade kernels)', 'ns/trade', whole.nsPerOp,
    baseline.nsPerOp, '<= 10x baseline', ratio <= 10));
  rows.push({
    bench: 'kernels', figure: 'trade path throughput', value: whole.opsPerSec / 1e6,
    unit: 'M trades/s', baseline: baseline.opsPerSec / 1e6, ratio: 1 / ratio,
    target: '>= 3 M/s', pass: whole.opsPerSec >= 3e6,
  });
  return rows;
}

/** Seeded 20-level books as views into flat arrays: each update reads a different book. */
function makeBooks() {
  const r = seeded(7);
  const flat = () => new Float64Array(BOOKS * LEVELS);
  const arrays = { bidPx: flat(), bidSz: flat(), askPx: flat(), askSz: flat() };
  let mid = 60_000;
  for (let b = 0; b < BOOKS; b++) {
    mid += Math.round((r() - 0.5) * 4);
    for (let k = 0; k < LEVELS; k++) {
      arrays.bidPx[b * LEVELS + k] = mid - 0.5 - k;
      arrays.askPx[b * LEVELS + k] = mid + 0.5 + k;
      arrays.bidSz[b * LEVELS + k] = r() * 5;
      arrays.askSz[b * LEVELS + k] = r() * 5;
    }
  }
  const views = (a: Float64Array) =>
    Array.from({ length: BOOKS }, (_, b) => a.subarray(b * LEVELS, (b + 1) * LEVELS));
  return {
    bidPx: views(arrays.bidPx), bidSz: views(arrays.bidSz), askPx: views(arrays.askPx),
    askSz: views(arrays.askSz),
  };
}

function bookRows(ops: number, runs: number): ReportRow[] {
  const { bidPx, bidSz, askPx, askSz } = makeBooks();
  let t = 1_700_000_000_000;
  const baseline = measure('book baseline', ops, (n) => {
    for (let i = 0; i < n; i++) {
      const b = i & (BOOKS - 1);
      const bp = bidPx[b]; const bq = bidSz[b]; const ap = askPx[b]; const aq = askSz[b];
      for (let k = 0; k < LEVELS; k++) sink += bp[k] * bq[k] - ap[k] * aq[k];
    }
  }, runs);
  const o = obi.createObiState();
  const obiOnly = measure('obi', ops, (n) => {
    for (let i = 0; i < n; i++) {
      const b = i & (BOOKS - 1);
      obi.updateObi(o, t += 100, bidPx[b], bidSz[b], LEVELS, askPx[b], askSz[b], LEVELS);
    }
  }, runs);
  const f = ofi.createOfiState();
  const ofiOnly = measure('ofi', ops, (n) => {
    for (let i = 0; i < n; i++) {
      const b = i & (BOOKS - 1);
      ofi.updateOfi(f, t += 100, bidPx[b], bidSz[b], LEVELS, askPx[b], askSz[b], LEVELS);
    }
  }, runs);
  const state = pair.createPairAnalytics();
  const path = measure('book path', ops, (n) => {
    for (let i = 0; i < n; i++) {
      const b = i & (BOOKS - 1);
      pair.onBook(state, t += 100, bidPx[b], bidSz[b], LEVELS, askPx[b], askSz[b], LEVELS);
    }
  }, runs);
  return [
    row('obi (top 10 + 0.5 % band of 20 levels)', 'ns/update', obiOnly.nsPerOp,
      baseline.nsPerOp, '-', null),
    row('ofi (10 levels of 20)', 'ns/update', ofiOnly.nsPerOp, baseline.nsPerOp, '-', null),
    row('book path (pair onBook: obi + ofi)', 'ns/book', path.nsPerOp, baseline.nsPerOp, '-',
      null),
    {
      bench: 'kernels', figure: 'book path throughput', value: path.opsPerSec / 1e6,
      unit: 'M books/s', baseline: baseline.opsPerSec / 1e6,
      ratio: path.opsPerSec / baseline.opsPerSec, target: '>= 1 M/s',
      pass: path.opsPerSec >= 1e6,
    },
  ];
}

/** Pairs fed 7 days of trades (every 2 s, VPIN distributions full): heap bytes per pair. */
function pairStateBytes(pairs: number): number {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  gc();
  const before = process.memoryUsage().heapUsed;
  const states: pair.PairAnalytics[] = [];
  for (let n = 0; n < pairs; n++) {
    const state = pair.createPairAnalytics({ vpinBucketVolume: 20 });
    const r = seeded(11 + n);
    let p = 60_000;
    for (let t = 1_700_000_000_000, end = t + 7 * 86_400_000; t < end; t += 2000) {
      p *= 1 + (r() - 0.5) * 1e-3;
      pair.onTrade(state, t, p, 0.01 + r(), r() < 0.5 ? 1 : -1);
    }
    states.push(state);
  }
  gc();
  const perPair = (process.memoryUsage().heapUsed - before) / pairs;
  if (states[0].bars.count[0] < 2016) throw new Error('the pair did not hold 7 days of bars');
  return perPair;
}

export async function run(opts: { quick: boolean }): Promise<ReportRow[]> {
  const laps = opts.quick ? 4 : 16;
  const runs = opts.quick ? 3 : 5;
  const rows = [...tradeRows(laps, runs), ...bookRows(laps * TRADES / 2, runs)];
  const bytes = pairStateBytes(opts.quick ? 2 : 4);
  rows.push({
    bench: 'kernels', figure: 'heap per tracked pair, 7 days of 5m bars', value: bytes / 1024,
    unit: 'KiB', baseline: 2048, ratio: bytes / 1024 / 2048, target: '< 2048 KiB',
    pass: bytes < 2 * 1024 * 1024,
  });
  if (sink === 0.5) rows.push(row('(sink)', '-', 0, 1, '-', null));
  return rows;
}

const isEntry = process.argv[1] !== undefined && /kernels\.bench\.ts$/.test(process.argv[1]);
if (isEntry) printRows(await run({ quick: quickFlag }));
