// The fake venue's history answers (candleSnapshot, fundingHistory) in the venue's real format.
// The recordings hold no 1-minute candles of the recorded BTC tape and no funding near it, so:
// - candles are derived from the recorded trades (hl_ws_btc_raw_2025-01-26.txt): a minute that
//   holds recorded trades (after the venue shifted them to "now") is their OHLCV; any earlier
//   minute replays a window of 12 consecutive recorded trades (its returns and sizes), rescaled
//   to a slowly drifting open price, so candles have real intra-minute moves; its volume is the
//   window's share scaled to the coin's recorded 24h volume (metaAndAssetCtxs dayNtlVlm / markPx
//   / 1440), so a day of candles holds about a day of the venue's volume, as the real ones do;
// - funding rows are the recorded BTC fundingHistory rates (hl_fundingHistory_BTC_2023.json),
//   in their order, re-stamped hourly so the newest falls in the current hour.
// Like the venue, only the newest 5000 candles of each interval (1m, 5m, 15m, 1h) exist, and an
// answer holds at most 5000 candles or 500 funding rows.
import { readFileSync } from 'node:fs';
import { venueFixture } from '../helpers/fixtures.js';

const minuteMs = 60_000;
const hourMs = 3_600_000;
const candlesKept = 5_000;
const fundingPerAnswer = 500;
const windowTrades = 12;

export interface RecordedTrade {
  readonly time: number;
  readonly px: number;
  readonly sz: number;
}

/** The recorded BTC trades, oldest first, de-duplicated by tid. */
export function recordedTrades(frames: readonly string[]): RecordedTrade[] {
  const seen = new Set<number>();
  const out: RecordedTrade[] = [];
  for (const frame of frames) {
    if (!frame.startsWith('{"channel":"trades"')) continue;
    for (const t of (JSON.parse(frame) as { data: { tid: number; time: number; px: string;
      sz: string }[] }).data) {
      if (seen.has(t.tid)) continue;
      seen.add(t.tid);
      out.push({ time: t.time, px: Number(t.px), sz: Number(t.sz) });
    }
  }
  return out.sort((a, b) => a.time - b.time);
}

interface VenueCandle {
  t: number; T: number; s: string; i: string; o: string; c: string; h: string; l: string;
  v: string; n: number;
}

/** The venue's interval names of the candles the fake venue answers. */
export const candleIntervals: Readonly<Record<string, number>> = {
  '1m': minuteMs, '5m': 5 * minuteMs, '15m': 15 * minuteMs, '1h': hourMs,
};

/**
 * The venue's candleSnapshot answer for candles of `interval` (1 minute unless said) opening in
 * [startMs, endMs]: a longer candle is the minutes it holds, as the venue's are; like the venue,
 * only the newest 5000 candles of each interval exist.
 */
export function candleAnswer(coin: string, startMs: number, endMs: number, nowMs: number,
  trades: readonly RecordedTrade[], minuteVolume: number, interval = '1m'): VenueCandle[] {
  const lengthMs = candleIntervals[interval];
  const currentOpen = Math.floor(nowMs / lengthMs) * lengthMs;
  const oldestOpen = currentOpen - (candlesKept - 1) * lengthMs;
  const out: VenueCandle[] = [];
  const from = Math.max(oldestOpen, Math.ceil(startMs / lengthMs) * lengthMs);
  const to = Math.min(currentOpen, endMs);
  for (let t = from; t <= to && out.length < candlesKept; t += lengthMs) {
    const path: RecordedTrade[] = [];
    for (let m = t; m < t + lengthMs && m <= nowMs; m += minuteMs) {
      const inMinute = trades.filter((x) => x.time >= m && x.time < m + minuteMs);
      path.push(...(inMinute.length > 0 ? inMinute : syntheticMinute(m, trades, minuteVolume)));
    }
    if (path.length === 0) continue;
    const prices = path.map((x) => x.px);
    out.push({
      t, T: t + lengthMs - 1, s: coin, i: interval, o: String(prices[0]),
      c: String(prices[prices.length - 1]), h: String(Math.max(...prices)),
      l: String(Math.min(...prices)), v: path.reduce((sum, x) => sum + x.sz, 0).toFixed(5),
      n: path.length,
    });
  }
  return out;
}

function syntheticMinute(openMs: number, trades: readonly RecordedTrade[], minuteVolume: number):
  RecordedTrade[] {
  if (trades.length < 2) return [];
  const meanWindow = trades.reduce((sum, x) => sum + x.sz, 0) * windowTrades / trades.length;
  const scale = minuteVolume > 0 && meanWindow > 0 ? minuteVolume / meanWindow : 1;
  const k = openMs / minuteMs;
  const first = (k * 7) % trades.length;
  const window: RecordedTrade[] = [];
  for (let j = 0; j < windowTrades; j++) window.push(trades[(first + j) % trades.length]);
  const open = trades[0].px * Math.exp(0.01 * Math.sin(k / 97) + 0.004 * Math.sin(k / 13));
  const base = window[0].px;
  return window.map((x) => ({ time: openMs, px: Math.round(open * (x.px / base)),
    sz: x.sz * scale }));
}

let fundingRates: { coin: string; fundingRate: string; premium: string }[] | null = null;

/** The venue's fundingHistory answer for [startMs, endMs] (oldest first, at most 500). */
export function fundingAnswer(coin: string, startMs: number, endMs: number, nowMs: number):
  unknown[] {
  fundingRates ??= JSON.parse(readFileSync(venueFixture('hl_fundingHistory_BTC_2023.json'),
    'utf8')) as { coin: string; fundingRate: string; premium: string }[];
  const rows = fundingRates;
  const newestHour = Math.floor(nowMs / hourMs) * hourMs;
  const out: unknown[] = [];
  for (let i = 0; i < rows.length && out.length < fundingPerAnswer; i++) {
    const time = newestHour - (rows.length - 1 - i) * hourMs + 48;
    if (time < startMs || time > endMs || time > nowMs) continue;
    out.push({ coin, fundingRate: rows[i].fundingRate, premium: rows[i].premium, time });
  }
  return out;
}
