// Plain, obviously-correct reference implementations on ordinary arrays: what the typed-array
// kernels must agree with (to 1e-9 relative) on random and real streams.
import { normalCdf, studentTCdf } from '../../../kernels/distributions.js';
import type { Book, Trades } from './streams.js';

const DAY = 86_400_000;

/** UTC-day CVD after the last trade, and the rolling CVD over the trailing whole minutes. */
export function plainCvd(t: Trades, rollingMinutes: number): { day: number; rolling: number } {
  const last = t.tsMs.length - 1;
  const day = Math.floor(t.tsMs[last] / DAY);
  const minute = Math.floor(t.tsMs[last] / 60_000);
  let cvd = 0;
  let rolling = 0;
  for (let i = 0; i <= last; i++) {
    const d = t.side[i] * t.price[i] * t.size[i];
    if (Math.floor(t.tsMs[i] / DAY) === day) cvd += d;
    if (Math.floor(t.tsMs[i] / 60_000) > minute - rollingMinutes) rolling += d;
  }
  return { day: cvd, rolling };
}

/** Closed CVD history points of one interval: every interval before the last trade's. */
export function plainCvdHistory(t: Trades,
  ms: number): { tsMs: number; cvd: number; delta: number }[] {
  const points: { tsMs: number; cvd: number; delta: number }[] = [];
  const first = Math.floor(t.tsMs[0] / ms);
  const last = Math.floor(t.tsMs[t.tsMs.length - 1] / ms);
  let i = 0;
  let cvd = 0;
  let day = Math.floor(t.tsMs[0] / DAY);
  for (let k = first; k < last; k++) {
    let delta = 0;
    if (Math.floor((k * ms) / DAY) !== day) { cvd = 0; day = Math.floor((k * ms) / DAY); }
    for (; i < t.tsMs.length && Math.floor(t.tsMs[i] / ms) === k; i++) {
      const d = t.side[i] * t.price[i] * t.size[i];
      delta += d;
      cvd += d;
    }
    points.push({ tsMs: k * ms, cvd, delta });
  }
  return points;
}

/** Buckets one bucket at a time; VPIN after each completed bucket once n exist. */
export function plainVpin(
  volumes: number[], buyFractions: number[], v: number, n: number,
): number[] {
  const imbalances: number[] = [];
  const vpins: number[] = [];
  let buy = 0;
  let sell = 0;
  let filled = 0;
  for (let i = 0; i < volumes.length; i++) {
    let remaining = volumes[i];
    const f = buyFractions[i];
    while (remaining >= v - filled) {
      const room = v - filled;
      imbalances.push(Math.abs(buy + room * f - (sell + room * (1 - f))));
      remaining -= room;
      buy = 0; sell = 0; filled = 0;
      if (imbalances.length >= n) {
        let sum = 0;
        for (const x of imbalances.slice(-n)) sum += x;
        vpins.push(sum / (n * v));
      }
    }
    buy += remaining * f;
    sell += remaining * (1 - f);
    filled += remaining;
  }
  return vpins;
}

/** VPIN by unit expansion: a trade of q contracts is q trades of one (integer sizes, V). */
export function unitVpin(t: Trades, v: number, n: number): number[] {
  const imbalances: number[] = [];
  const vpins: number[] = [];
  let buys = 0;
  let units = 0;
  for (let i = 0; i < t.size.length; i++) {
    for (let u = 0; u < t.size[i]; u++) {
      units += 1;
      if (t.side[i] === 1) buys += 1;
      if (units === v) {
        imbalances.push(Math.abs(buys - (v - buys)));
        buys = 0;
        units = 0;
        if (imbalances.length >= n) {
          let sum = 0;
          for (const x of imbalances.slice(-n)) sum += x;
          vpins.push(sum / (n * v));
        }
      }
    }
  }
  return vpins;
}

/** BVC: non-empty time bars (all but the last), sigma over trailing changes, ddof 1. */
export function plainBvcInputs(
  t: Trades, barMs: number, sigmaBars: number, nu: number,
): { volumes: number[]; fractions: number[] } {
  const bars: { close: number; volume: number }[] = [];
  let current = -Infinity;
  for (let i = 0; i < t.tsMs.length; i++) {
    const b = Math.floor(t.tsMs[i] / barMs);
    if (b !== current) { bars.push({ close: 0, volume: 0 }); current = b; }
    bars[bars.length - 1].close = t.price[i];
    bars[bars.length - 1].volume += t.size[i];
  }
  bars.pop();
  const changes: number[] = [];
  const volumes: number[] = [];
  const fractions: number[] = [];
  for (let i = 1; i < bars.length; i++) {
    const change = bars[i].close - bars[i - 1].close;
    changes.push(change);
    if (changes.length < 2) continue;
    const w = changes.slice(-sigmaBars);
    const mean = w.reduce((a, b) => a + b, 0) / w.length;
    const sigma = Math.sqrt(w.reduce((a, b) => a + (b - mean) ** 2, 0) / (w.length - 1));
    const z = change / sigma;
    volumes.push(bars[i].volume);
    fractions.push(sigma > 0 ? (nu === 0 ? normalCdf(z) : studentTCdf(z, nu)) : 0.5);
  }
  return { volumes, fractions };
}

export function plainObi(book: Book, k: number, bandPct: number): { topK: number; band: number } {
  const sum = (sz: Float64Array, n: number, keep: (i: number) => boolean) => {
    let s = 0;
    for (let i = 0; i < n; i++) if (keep(i)) s += sz[i];
    return s;
  };
  const ratio = (b: number, a: number) => (b + a > 0 ? (b - a) / (b + a) : NaN);
  const topK = ratio(sum(book.bidSz, book.bidLevels, (i) => i < k),
    sum(book.askSz, book.askLevels, (i) => i < k));
  if (book.bidLevels === 0 || book.askLevels === 0) return { topK, band: NaN };
  const mid = (book.bidPx[0] + book.askPx[0]) / 2;
  const band = ratio(
    sum(book.bidSz, book.bidLevels, (i) => book.bidPx[i] >= mid * (1 - bandPct / 100)),
    sum(book.askSz, book.askLevels, (i) => book.askPx[i] <= mid * (1 + bandPct / 100)));
  return { topK, band };
}

/** CKS e_n for one level by the case table (price up / down / unchanged on each side). */
function contribution(
  bp: number, bq: number, pbp: number, pbq: number, ap: number, aq: number, pap: number,
  paq: number,
): number {
  let bid: number;
  if (bp > pbp) bid = bq;
  else if (bp < pbp) bid = -pbq;
  else bid = bq - pbq;
  let ask: number;
  if (ap < pap) ask = -aq;
  else if (ap > pap) ask = paq;
  else ask = -(aq - paq);
  return bid + ask;
}

/** Per closed interval: [open time, OFI of level 1..M], books crossed or empty skipped. */
export function plainOfi(books: Book[], levels: number,
  ms: number): { tsMs: number; ofi: number[] }[] {
  const out: { tsMs: number; ofi: number[] }[] = [];
  let prev: Book | null = null;
  let interval = Math.floor(books[0].tsMs / ms);
  let acc = new Array<number>(levels).fill(0);
  const px = (b: Book, side: 'bid' | 'ask', k: number) => side === 'bid'
    ? (k < b.bidLevels ? b.bidPx[k] : -Infinity) : (k < b.askLevels ? b.askPx[k] : Infinity);
  const sz = (b: Book, side: 'bid' | 'ask', k: number) => side === 'bid'
    ? (k < b.bidLevels ? b.bidSz[k] : 0) : (k < b.askLevels ? b.askSz[k] : 0);
  for (const b of books) {
    const now = Math.floor(b.tsMs / ms);
    for (; interval < now; interval++) {
      out.push({ tsMs: interval * ms, ofi: acc });
      acc = new Array<number>(levels).fill(0);
    }
    const bad = (b.bidLevels === 0 && b.askLevels === 0) ||
      (b.bidLevels > 0 && b.askLevels > 0 && b.bidPx[0] >= b.askPx[0]);
    if (bad) { prev = null; continue; }
    if (prev !== null) {
      for (let k = 0; k < levels; k++) {
        acc[k] += contribution(px(b, 'bid', k), sz(b, 'bid', k), px(prev, 'bid', k),
          sz(prev, 'bid', k), px(b, 'ask', k), sz(b, 'ask', k), px(prev, 'ask', k),
          sz(prev, 'ask', k));
      }
    }
    prev = b;
  }
  return out;
}

/** Kyle lambda after every closed interval (null below minIntervals or flat flow). */
export function plainKyle(
  t: Trades, ms: number, window: number, minIntervals: number,
): (number | null)[] {
  const flows: number[] = [];
  const returns: number[] = [];
  const lambdas: (number | null)[] = [];
  let interval = Math.floor(t.tsMs[0] / ms);
  let flow = 0;
  let last = t.price[0];
  let reference = NaN;
  for (let i = 0; i < t.tsMs.length; i++) {
    const now = Math.floor(t.tsMs[i] / ms);
    if (now > interval) {
      if (!Number.isNaN(reference)) {
        flows.push(flow);
        returns.push(Math.log(last / reference) * 1e4);
        for (let k = interval + 1; k < now; k++) { flows.push(0); returns.push(0); }
        const x = flows.slice(-window);
        const y = returns.slice(-window);
        lambdas.push(x.length < minIntervals ? null : ols(x, y));
      }
      reference = last;
      flow = 0;
      interval = now;
    }
    flow += (t.side[i] * t.price[i] * t.size[i]) / 1e6;
    last = t.price[i];
  }
  return lambdas;
}

function ols(x: number[], y: number[]): number | null {
  const n = x.length;
  const mx = x.reduce((a, b) => a + b, 0) / n;
  const my = y.reduce((a, b) => a + b, 0) / n;
  let sxx = 0;
  let sxy = 0;
  for (let k = 0; k < n; k++) {
    sxx += (x[k] - mx) ** 2;
    sxy += (x[k] - mx) * (y[k] - my);
  }
  return sxx > 1e-12 * x.reduce((a, b) => a + b * b, 0) ? sxy / sxx : null;
}

export interface PlainBar {
  openMs: number; open: number; high: number; low: number; close: number; volume: number;
  buyNotional: number; sellNotional: number; cvdClose: number; trades: number;
}

/** Closed bars of one timeframe (every bar before the last trade's), empty ones flat. */
export function plainBars(t: Trades, ms: number): PlainBar[] {
  const bars: PlainBar[] = [];
  const first = Math.floor(t.tsMs[0] / ms);
  const last = Math.floor(t.tsMs[t.tsMs.length - 1] / ms);
  let i = 0;
  let close = t.price[0];
  let cvd = 0;
  let day = Math.floor(t.tsMs[0] / DAY);
  for (let k = first; k < last; k++) {
    const bar: PlainBar = {
      openMs: k * ms, open: close, high: close, low: close, close, volume: 0, buyNotional: 0,
      sellNotional: 0, cvdClose: 0, trades: 0,
    };
    if (Math.floor((k * ms) / DAY) !== day) { cvd = 0; day = Math.floor((k * ms) / DAY); }
    for (; i < t.tsMs.length && Math.floor(t.tsMs[i] / ms) === k; i++) {
      const p = t.price[i];
      if (bar.trades === 0) { bar.open = p; bar.high = p; bar.low = p; }
      bar.high = Math.max(bar.high, p);
      bar.low = Math.min(bar.low, p);
      bar.close = p;
      bar.volume += t.size[i];
      if (t.side[i] === 1) bar.buyNotional += p * t.size[i];
      else bar.sellNotional += p * t.size[i];
      cvd += t.side[i] * p * t.size[i];
      bar.trades += 1;
      close = p;
    }
    bar.cvdClose = cvd;
    bars.push(bar);
  }
  return bars;
}

/** Merged prints (same ms and side, consecutive) closed before the last one; whales >= min. */
export function plainWhales(t: Trades,
  thresholdUsd: number): { tsMs: number; notional: number; side: number }[] {
  const merged: { tsMs: number; notional: number; side: number }[] = [];
  for (let i = 0; i < t.tsMs.length; i++) {
    const m = merged[merged.length - 1];
    if (m && m.tsMs === t.tsMs[i] && m.side === t.side[i]) m.notional += t.price[i] * t.size[i];
    else merged.push({ tsMs: t.tsMs[i], notional: t.price[i] * t.size[i], side: t.side[i] });
  }
  merged.pop();
  return merged.filter((m) => m.notional >= thresholdUsd);
}

/** Absorption events of closed windows with a fixed N_min. */
export function plainAbsorption(
  t: Trades, windowMs: number, notionalMin: number, imbalanceMin: number, moveBpsMax: number,
): { openMs: number; kind: number }[] {
  const events: { openMs: number; kind: number }[] = [];
  const groups = new Map<number, number[]>();
  for (let i = 0; i < t.tsMs.length; i++) {
    const w = Math.floor(t.tsMs[i] / windowMs);
    if (!groups.has(w)) groups.set(w, []);
    groups.get(w)!.push(i);
  }
  const keys = [...groups.keys()];
  keys.pop();
  for (const w of keys) {
    const idx = groups.get(w)!;
    let ab = 0;
    let as = 0;
    for (const i of idx) {
      if (t.side[i] === 1) ab += t.price[i] * t.size[i];
      else as += t.price[i] * t.size[i];
    }
    const first = t.price[idx[0]];
    const move = ((t.price[idx[idx.length - 1]] - first) / first) * 1e4;
    const imb = (ab - as) / (ab + as);
    if (as >= notionalMin && imb <= -imbalanceMin &&
      move >= -moveBpsMax) events.push({ openMs: w * windowMs, kind: 1 });
    else if (ab >= notionalMin && imb >= imbalanceMin &&
      move <= moveBpsMax) events.push({ openMs: w * windowMs, kind: -1 });
  }
  return events;
}
