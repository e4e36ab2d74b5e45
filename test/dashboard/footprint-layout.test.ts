// The footprint chart's layout (web/src/footprint-layout.ts, profile-layout.ts and
// footprint-words.ts) on answers of the endpoints' shape (footprint-fixture.ts): which cells
// hold numbers, the buy/sell colour scale, the price and time axes, the bar cursor, and the
// words a screen reader hears.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  barLevelSize, barsRange, cellShade, cellText, deltaScaleMax, fitsNumbers, mergeRows, moveCursor,
  priceLabel, priceTicks, priceY, rgba, rowSizeFor, timeLabels, volumeText, windowStart,
  type PriceScale,
} from '../../web/src/footprint-layout.js';
import { barSummary, CANDLES_NOTE, levelMarks } from '../../web/src/footprint-words.js';
import {
  inValueArea, markAt, mergeProfileRows, profileBarPx, profileSummary, profileVolumeMax,
} from '../../web/src/profile-layout.js';
import { footprintFixture, profileFixture } from './footprint-fixture.js';

const NOW_MS = Date.parse('2026-11-29T04:31:10Z');
const answer = footprintFixture(NOW_MS);
const price = (p: number | null) => (p === null ? '—' : p.toFixed(1));

test('volumes in at most 5 characters, so "bid x ask" fits a narrow column', () => {
  const values = [0, 0.0004, 0.004, 0.042, 0.42, 4.214, 42.14, 421.4, 4_214, 42_140, 4_214_000];
  assert.equal(values.map(volumeText),
    ['0', '<.001', '.004', '.042', '0.42', '4.21', '42.1', '421', '4.2K', '42K', '4.2M']);
  for (const v of values) assert.ok(volumeText(v).length <= 5, volumeText(v));
  assert.is(volumeText(-3.5), '-3.50');
  assert.equal(cellText({ price: 64_250, buy: 1.5, sell: 0.042, delta: 1.458 }), ['.042', '1.50']);
});

test('numbers where the cell holds them; colour only in a short row or a narrow column', () => {
  const charPx = 6.6;
  const crossPx = 19.8;
  assert.ok(fitsNumbers(5 * charPx, crossPx, 94, 16), 'five characters at 94 px x 16 px');
  assert.not.ok(fitsNumbers(5 * charPx, crossPx, 60, 16), 'too narrow');
  assert.not.ok(fitsNumbers(4 * charPx, crossPx, 90, 12), 'too short a row');
  assert.ok(fitsNumbers(4 * charPx, crossPx, 2 * (4 * charPx + 3) + crossPx, 13), 'exactly');
});

test('colour diverges by delta sign, deeper with |delta|, neutral when even', () => {
  const max = deltaScaleMax(answer.bars);
  assert.ok(max > 0);
  assert.is(max, Math.max(...answer.bars.flatMap((b) => b.levels.map((l) => Math.abs(l.delta)))));
  assert.equal(cellShade(0, 0, max), { side: 'even', alpha: 0 });
  assert.equal(cellShade(0, 2, max).side, 'even');
  const small = cellShade(max / 100, 1, max);
  const large = cellShade(max, 1, max);
  assert.is(small.side, 'buy');
  assert.is(cellShade(-max / 2, 1, max).side, 'sell');
  assert.ok(small.alpha > 0.12 && small.alpha < large.alpha && large.alpha <= 0.85,
    `${small.alpha} ${large.alpha}`);
  assert.is(cellShade(-max, 1, max).alpha, large.alpha);
  assert.is(rgba('#3fb950', 0.5), 'rgba(63, 185, 80, 0.5)');
});

test('the scale spans every shown bar in whole levels, candle bars by high and low', () => {
  const range = barsRange(answer.bars.slice(0, 4), answer.levelSize)!;
  const lows = answer.bars.slice(0, 4).map((b) => Math.min(b.low, b.levels[0]?.price ?? b.low));
  assert.ok(range.low < Math.min(...lows) && range.low % answer.levelSize === 0);
  assert.ok(range.high > Math.max(...answer.bars.slice(0, 4).map((b) => b.high)));
  assert.is(range.levels, (range.high - range.low) / answer.levelSize);
  assert.is(barsRange([], 5), null);
  const scale: PriceScale = { low: range.low, high: range.high, topPx: 8, heightPx: 400 };
  assert.is(priceY(scale, range.high), 8);
  assert.is(priceY(scale, range.low), 408);
});

test('a wide range merges whole levels into rows; volumes, delta and the POC row kept', () => {
  assert.is(rowSizeFor(100, 5, 120), 5);
  assert.is(rowSizeFor(121, 5, 120), 10);
  assert.is(rowSizeFor(668, 2, 120), 16);
  const bar = answer.bars.find((b) => b.basis === 'trades' && b.levels.length > 20)!;
  const merged = mergeRows(bar, 20);
  assert.is(barLevelSize(bar, 1), 5);
  assert.is(barLevelSize(merged, 1), 20);
  const sum = (levels: typeof bar.levels, key: 'buy' | 'sell' | 'delta') =>
    levels.reduce((a, l) => a + l[key], 0);
  for (const key of ['buy', 'sell', 'delta'] as const) {
    assert.ok(Math.abs(sum(merged.levels, key) - sum(bar.levels, key)) < 1e-9, key);
  }
  assert.ok(merged.levels.every((l) => l.price % 20 === 0));
  assert.is(merged.pocPrice, Math.floor(bar.pocPrice! / 20) * 20);
  assert.ok(merged.levels.some((l) => l.price === merged.pocPrice));
  assert.is(mergeRows(bar, 5), bar);
});

test('price ticks on round steps at least 40 px apart, labelled with the step\'s decimals', () => {
  const scale: PriceScale = { low: 64_000, high: 64_330, topPx: 0, heightPx: 16 * 66 };
  const ticks = priceTicks(scale);
  const step = ticks[1] - ticks[0];
  assert.ok([10, 20, 25].includes(step), String(step));
  assert.ok(step * (scale.heightPx / 330) >= 40);
  assert.ok(ticks.every((t) => t % step === 0 && t >= 64_000 && t <= 64_330));
  assert.is(priceLabel(64_250, 10), '64,250');
  assert.is(priceLabel(0.1625, 0.0025), '0.1625');
  assert.is(priceLabel(148.5, 0.5), '148.5');
  assert.equal(priceTicks({ low: 1, high: 1, topPx: 0, heightPx: 100 }), []);
});

test('times in UTC, HH:MM, the date on the first bar of each day', () => {
  const labels = timeLabels([Date.parse('2026-11-28T23:50:00Z'), Date.parse('2026-11-28T23:55:00Z'),
    Date.parse('2026-11-29T00:00:00Z')]);
  assert.equal(labels, [{ clock: '23:50', day: '11-28' }, { clock: '23:55', day: null },
    { clock: '00:00', day: '11-29' }]);
});

test('the bar cursor: arrows one bar, Page keys ten, Home and End; the window follows', () => {
  assert.is(moveCursor(5, 'ArrowLeft', 30), 4);
  assert.is(moveCursor(29, 'ArrowRight', 30), 29);
  assert.is(moveCursor(5, 'PageUp', 30), 0);
  assert.is(moveCursor(5, 'End', 30), 29);
  assert.is(moveCursor(5, 'Home', 30), 0);
  assert.is(moveCursor(5, 'a', 30), null);
  assert.is(moveCursor(0, 'ArrowLeft', 0), null);
  assert.is(windowStart(30, 10, 29, 20), 20);
  assert.is(windowStart(30, 10, 19, 20), 19);
  assert.is(windowStart(30, 10, 25, 12), 16);
  assert.is(windowStart(30, 10, 15, 12), 12);
});

test('a bar in words: candles say so, a trades bar its figures and stacks', () => {
  const candles = answer.bars[2];
  assert.is(barSummary(candles, price), `Bar ${candles.openTime.toString().slice(0, 10)} ` +
    `${candles.openTime.toString().slice(11, 16)} UTC: ${CANDLES_NOTE}; high ` +
    `${price(candles.high)}, low ${price(candles.low)}.`);
  const stacked = answer.bars.find((b) => b.basis === 'trades' && b.stackedImbalances.length > 0)!;
  const words = barSummary(stacked, price);
  assert.match(words, new RegExp(`point of control ${price(stacked.pocPrice)}`));
  assert.match(words, /stacked (buy|sell) imbalance \d+\.0 to \d+\.0 \(\d+ levels\)/);
  assert.match(barSummary(answer.bars[3], price), /built from candles: the footprint holds/);
  const many = { ...stacked, stackedImbalances: Array(5).fill(stacked.stackedImbalances[0]) };
  assert.match(barSummary(many, price), /\) and 2 more \(in the table\)\.$/);
  assert.match(barSummary(answer.bars[answer.bars.length - 1], price), /\(open\)/);
  const s = stacked.stackedImbalances[0];
  assert.match(levelMarks(stacked, s.fromPrice, answer.levelSize), /stacked/);
  assert.match(levelMarks(stacked, stacked.pocPrice!, answer.levelSize), /point of control/);
});

test('profile: bars against the busiest level, the value area, marks pinned to the edges', () => {
  const profile = profileFixture(answer);
  const max = profileVolumeMax(profile);
  assert.is(profileBarPx(max, max, 200), 200);
  assert.is(profileBarPx(max / 1000, max, 200), 1);
  assert.is(profileBarPx(0, max, 200), 0);
  assert.ok(inValueArea(profile.pocPrice!, profile));
  assert.ok(inValueArea(profile.valueAreaLow!, profile));
  assert.ok(inValueArea(profile.valueAreaHigh! - profile.levelSize, profile));
  assert.not.ok(inValueArea(profile.valueAreaHigh!, profile), 'the top edge is the next level');
  const scale: PriceScale = { low: 64_000, high: 64_100, topPx: 8, heightPx: 200 };
  assert.equal(markAt(scale, 64_200, 5), { y: 8, off: 'above' });
  assert.equal(markAt(scale, 63_000, 5), { y: 208, off: 'below' });
  assert.equal(markAt(scale, 64_050, 5), { y: 8 + 200 * (47.5 / 100), off: null });
  assert.match(profileSummary(profile, price), new RegExp(`^Point of control ` +
    `${price(profile.pocPrice)}, value area ${price(profile.valueAreaLow)} to ` +
    `${price(profile.valueAreaHigh)}, .*earlier days: \\d+\\.0 \\(11-27\\), ` +
    '\\d+\\.0 \\(11-28\\)\\.$'));
  assert.is(profileSummary({ ...profile, levels: [] }, price), 'No trades in this session yet.');
  const rows = mergeProfileRows(profile, 20);
  assert.is(rows.levelSize, 20);
  assert.ok(Math.abs(rows.levels.reduce((a, l) => a + l.volume, 0) - profile.levels
    .reduce((a, l) => a + l.volume, 0)) < 1e-9);
  assert.is(mergeProfileRows(profile, 5), profile);
});

test.run();
