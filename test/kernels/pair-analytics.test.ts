// The per-pair bundle: event bits, null snapshot when empty, views' fields, bar reading,
// onTime, gap handling and rejection of bad events.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  ABSORPTION_EVENT, BAR_15M_CLOSED, BAR_1H_CLOSED, BAR_5M_CLOSED, createBarColumns,
  createKernelBar, createPairAnalytics, createPairSnapshot, gapPairAnalytics, lastClosedBar,
  onBook, onFunding, onMark, onTime, onTrade, pairSnapshotJson, readClosedBars,
  resetPairAnalytics, setPairVpinBucketVolume, snapshotPairAnalytics, VPIN_BUCKET, WHALE_PRINT,
  WHALE_PRINT_CROSSED,
} from '../../kernels/index.js';
import { randomTrades, realBtcTrades, realL2Books } from './helpers/streams.js';

const HOUR = 3_600_000;

test('a fresh pair reports null everywhere (not 0) and NEUTRAL', () => {
  const s = createPairAnalytics();
  const out = snapshotPairAnalytics(s, createPairSnapshot(s.options));
  const j = pairSnapshotJson(out);
  for (const key of ['tsMs', 'price', 'vpin', 'vpinLevel', 'cvd', 'obi', 'ofi', 'kyleLambda',
    'regime', 'score'] as const) {
    assert.is(j[key], null, key);
  }
  assert.is(j.direction, 'NEUTRAL');
  assert.equal(j.whales, []);
  assert.equal(j.lastBars, { '5m': null, '15m': null, '1h': null });
});

test('bits: bar closes per timeframe, whale cross and close, VPIN bucket', () => {
  const s = createPairAnalytics({ vpinBucketVolume: 1, whaleFallbackUsd: 1000, whaleFloorUsd: 0 });
  const t0 = 100 * 24 * HOUR;
  assert.is(onTrade(s, t0, 100, 0.5, 1) & VPIN_BUCKET, 0);
  assert.ok((onTrade(s, t0 + 1, 100, 0.6, 1) & VPIN_BUCKET) !== 0);
  assert.ok((onTrade(s, t0 + 2, 100, 20, -1) & WHALE_PRINT_CROSSED) !== 0);
  const bits = onTrade(s, t0 + HOUR, 101, 0.1, 1);
  assert.ok((bits & WHALE_PRINT) !== 0);
  assert.is(bits & (BAR_5M_CLOSED | BAR_15M_CLOSED | BAR_1H_CLOSED), 7);
  const bar = createKernelBar();
  assert.ok(lastClosedBar(s.bars, 0, bar));
  assert.is(bar.openMs, t0 + HOUR - 300_000, 'the newest closed 5m bar is a flat one');
  const cols = createBarColumns(200);
  assert.is(readClosedBars(s.bars, 0, 200, cols), 12);
  assert.equal([cols.open[0], cols.close[0], cols.trades[0]], [100, 100, 3]);
  assert.is(onTime(s, t0 + HOUR + 300_000) & BAR_5M_CLOSED, BAR_5M_CLOSED);
  assert.throws(() => onTrade(s, t0 + HOUR, 100, 1, 1), /tsMs must be not before/,
    'a trade older than the market time onTime moved to');
});

test('the real tape and books fill every view field; the state is unchanged by snapshots', () => {
  const s = createPairAnalytics({ vpinBucketVolume: 10, vpinLevelMinValues: 20,
    kyleIntervalMs: 5000, kyleMinIntervals: 5, absorptionWindowMs: 5000, ofiIntervalMs: 1000,
    scoreOfiMinIntervals: 5, regimeBars: 2, regimeRvMinSamples: 1 });
  const t = realBtcTrades();
  let seen = 0;
  for (let i = 0; i < t.tsMs.length; i++) seen |= onTrade(s, t.tsMs[i], t.price[i], t.size[i],
    t.side[i]);
  // The l2Book frames are from another day: move them after the tape.
  const shift = t.tsMs[t.tsMs.length - 1] - realL2Books()[0].tsMs + 1;
  for (const b of realL2Books()) {
    onBook(s, b.tsMs + shift, b.bidPx, b.bidSz, b.bidLevels, b.askPx, b.askSz, b.askLevels);
  }
  onFunding(s, 0.0000125);
  onMark(s, 61_700);
  const out = snapshotPairAnalytics(s, createPairSnapshot(s.options));
  const j = pairSnapshotJson(out);
  assert.ok((seen & ABSORPTION_EVENT) !== 0 || j.absorptions.length === 0);
  assert.is(j.price, 61_700);
  for (const key of ['vpin', 'vpinLevel', 'vpinBvc', 'cvd', 'obi', 'ofi', 'kyleLambda', 'score',
    'fundingAnnualizedPct'] as const) {
    assert.ok(j[key] !== null, `${key} is set`);
  }
  assert.ok(j.vpin! >= 0 && j.vpin! <= 1);
  assert.ok(Number.isInteger(j.score) && j.score! >= -100 && j.score! <= 100);
  assert.ok(['LONG', 'SHORT', 'NEUTRAL'].includes(j.direction));
  assert.is(j.cvdHistory['1m'].length, 5);
  assert.ok(j.lastBars['5m'] !== null);
  assert.ok(Math.abs(j.fundingAnnualizedPct! - 10.95) < 1e-9);
  const again = pairSnapshotJson(snapshotPairAnalytics(s, createPairSnapshot(s.options)));
  assert.equal(again, j);
});

test('a gap drops open aggregates and keeps closed history; reset clears everything', () => {
  const s = createPairAnalytics({ vpinBucketVolume: 5, vpinWindowBuckets: 5 });
  const t = randomTrades(61, 5000);
  for (let i = 0; i < t.tsMs.length; i++) onTrade(s, t.tsMs[i], t.price[i], t.size[i], t.side[i]);
  const snapshot = createPairSnapshot(s.options);
  const before = pairSnapshotJson(snapshotPairAnalytics(s, snapshot));
  const closedBars = s.bars.count[0];
  gapPairAnalytics(s);
  const after = pairSnapshotJson(snapshotPairAnalytics(s, snapshot));
  assert.is(after.cvd, null, 'the UTC-day CVD missed trades: unknown until the next trade');
  assert.is(after.vpin, before.vpin, 'completed buckets stay');
  assert.is(s.bars.count[0], closedBars);
  assert.equal(after.lastBars['5m'], before.lastBars['5m']);
  assert.equal(after.openBars, { '5m': null, '15m': null, '1h': null });
  const last = t.tsMs[t.tsMs.length - 1];
  assert.throws(() => onTrade(s, last - 1, 100, 1, 1), /tsMs/, 'time does not go back over a gap');
  onTrade(s, last + 10 * HOUR, 100, 1, 1);
  assert.is(s.bars.count[0], closedBars, 'no flat bars are invented across the gap');
  setPairVpinBucketVolume(s, 7);
  resetPairAnalytics(s);
  const reset = pairSnapshotJson(snapshotPairAnalytics(s, snapshot));
  const fresh = createPairAnalytics({ vpinBucketVolume: 5, vpinWindowBuckets: 5 });
  assert.equal(reset, pairSnapshotJson(snapshotPairAnalytics(fresh,
    createPairSnapshot(fresh.options))));
});

test('bad options and events are rejected with the field named', () => {
  assert.throws(() => createPairAnalytics({ ofiLevels: 0 }), /option levels/);
  assert.throws(() => createPairAnalytics({ weightCvd: 2 }), /option weightCvd/);
  const s = createPairAnalytics();
  assert.throws(() => onTrade(s, 1, 100, NaN, 1),
    /trade size must be a finite number > 0 \(was NaN\)/);
  assert.throws(() => onMark(s, -1), /markPx/);
  assert.throws(() => onFunding(s, Infinity), /hourlyRate/);
  assert.throws(() => setPairVpinBucketVolume(s, NaN), /bucketVolume/);
  assert.throws(() => onTrade(s, -Infinity, 100, 1, 1), /tsMs must be a finite/);
  assert.throws(() => onTrade(s, 1, 100, 1, 0), /trade side must be \+1 or -1 \(was 0\)/);
});

test('a bad book level throws before OBI or OFI change: the one check covers both', () => {
  const s = createPairAnalytics();
  const px = (first: number) => Float64Array.from({ length: 20 }, (_, k) => first + k);
  const sz = () => new Float64Array(20).fill(1);
  const bidPx = Float64Array.from({ length: 20 }, (_, k) => 99 - k);
  onBook(s, 1000, bidPx, sz(), 20, px(101), sz(), 20);
  const before = JSON.stringify([s.obi, Array.from(s.ofi.prevAskSz), Array.from(s.ofi.open)]);
  const bad = sz();
  bad[15] = NaN;
  assert.throws(() => onBook(s, 2000, bidPx, sz(), 20, px(101), bad, 20),
    /book ask size \[15\] must be a finite number >= 0 \(was NaN\)/);
  assert.throws(() => onBook(s, 2000, bidPx, sz(), 20, px(101), sz(), 21), /book ask levels/);
  assert.is(JSON.stringify([s.obi, Array.from(s.ofi.prevAskSz), Array.from(s.ofi.open)]), before);
  assert.throws(() => onBook(s, 500, bidPx, sz(), 20, px(101), sz(), 20), /not before/);
});

test.run();
