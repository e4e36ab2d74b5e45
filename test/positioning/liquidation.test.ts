// Liquidation prices and bands on hand-computed positions (cross and isolated, long and short,
// with and without the venue's price), and the real margin tables of metaAndAssetCtxs.
import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { buildLiquidationMap } from '../../actors/positioning/liquidation-map.js';
import { liquidationPrice } from '../../actors/positioning/liquidation-price.js';
import {
  maintenanceMarginUsd, maintenanceTiers, parseMarginTables, type MarginTables,
} from '../../actors/positioning/margin-tables.js';
import { venueFixture } from '../helpers/fixtures.js';
import { addressOf, position, walletState } from './helpers.js';

const close = (actual: number | null, expected: number, what: string) =>
  assert.ok(actual !== null && Math.abs(actual - expected) < 1e-6, `${what}: ${actual}`);

// Every symbol here: one tier at 10x max leverage, maintenance rate 5 %.
const tables: MarginTables = new Map(['A', 'B', 'C'].map((s) =>
  [s, maintenanceTiers([{ lowerBoundUsd: 0, maxLeverage: 10 }])]));
const isoTables: MarginTables = new Map([['A', maintenanceTiers([{ lowerBoundUsd: 0,
  maxLeverage: 20 }])]]); // rate 2.5 %

test('isolated long and short: margin at entry against the maintenance margin', () => {
  const long = position({ symbol: 'A', size: 10, entryPx: 100, leverage: 10,
    leverageType: 'isolated' });
  const short = { ...long, size: -10 };
  const wallet = walletState(addressOf(1), 1_000, [long]);
  // (100 - 100/10) / (1 - 0.025) and (100 + 100/10) / (1 + 0.025)
  close(liquidationPrice(long, wallet, isoTables).price, 90 / 0.975, 'isolated long');
  close(liquidationPrice(short, wallet, isoTables).price, 110 / 1.025, 'isolated short');
  assert.is(liquidationPrice(long, wallet, isoTables).source, 'estimate');
});

test('cross long and short share the account: the other positions held fixed', () => {
  const long = position({ symbol: 'A', size: 10, entryPx: 90, positionValue: 1_000 }); // mark 100
  const short = position({ symbol: 'B', size: -5, entryPx: 210, positionValue: 1_000 }); // 200
  const wallet = walletState(addressOf(1), 500, [long, short]);
  // available = 500 - (1000 * 5 % + 1000 * 5 %) = 400
  close(liquidationPrice(long, wallet, tables).price, 100 - 400 / 10 / 0.95, 'cross long');
  close(liquidationPrice(short, wallet, tables).price, 200 + 400 / 5 / 1.05, 'cross short');
  // An isolated position's margin is not available to the cross account.
  const isolated = position({ symbol: 'C', size: 1, leverageType: 'isolated', marginUsed: 100 });
  const withIsolated = walletState(addressOf(1), 500, [long, short, isolated]);
  close(liquidationPrice(long, withIsolated, tables).price, 100 - 300 / 10 / 0.95, 'less equity');
});

test('the venue liquidation price wins; a safe long has none', () => {
  const long = position({ symbol: 'A', size: 10, liquidationPx: 80 });
  const wallet = walletState(addressOf(1), 1_000_000, [long]);
  assert.equal(liquidationPrice(long, wallet, tables), { price: 80, source: 'venue' });
  const safe = { ...long, liquidationPx: null };
  assert.equal(liquidationPrice(safe, wallet, tables), { price: null, source: 'estimate' });
});

test('without a margin table the position leverage stands in for the max leverage', () => {
  const long = position({ symbol: 'Z', size: 1, entryPx: 100, leverage: 5,
    leverageType: 'isolated' });
  // rate 1 / (2 * 5) = 10 %: (100 - 20) / 0.9
  close(liquidationPrice(long, walletState(addressOf(1), 0, [long])).price, 80 / 0.9, 'fallback');
});

test('tiers: deductions keep the maintenance margin continuous', () => {
  const tiers = maintenanceTiers([
    { lowerBoundUsd: 3_000_000, maxLeverage: 5 }, { lowerBoundUsd: 0, maxLeverage: 10 },
  ]);
  assert.equal(tiers.map((t) => [t.rate, t.deductionUsd]), [[0.05, 0], [0.1, 150_000]]);
  close(maintenanceMarginUsd(3_000_000, tiers), 150_000, 'at the boundary');
  close(maintenanceMarginUsd(2_999_999, tiers), 149_999.95, 'just below');
  close(maintenanceMarginUsd(4_000_000, tiers), 250_000, 'above');
  assert.throws(() => maintenanceTiers([]), /at least one tier/);
});

test('the real metaAndAssetCtxs margin tables', () => {
  const body = JSON.parse(readFileSync(venueFixture('hl_metaAndAssetCtxs_main_2026-02-06.json'),
    'utf8'));
  const parsed = parseMarginTables(body);
  assert.ok(parsed.ok);
  if (!parsed.ok) return;
  assert.is(parsed.value.size, body[0].universe.length);
  const btc = parsed.value.get('BTC')!; // table 56: 40x, 20x above 150M
  assert.equal(btc.map((t) => [t.lowerBoundUsd, t.maxLeverage, t.rate]),
    [[0, 40, 0.0125], [150_000_000, 20, 0.025]]);
  close(btc[1].deductionUsd, 1_875_000, 'BTC tier deduction');
  assert.equal(parsed.value.get('ATOM')!.map((t) => t.maxLeverage), [5], 'id < 50: one tier');
  const long = position({ symbol: 'BTC', size: 1, entryPx: 66_344, leverage: 10,
    leverageType: 'isolated' });
  close(liquidationPrice(long, walletState(addressOf(1), 0, [long]), parsed.value).price,
    (66_344 * 0.9) / 0.9875, 'BTC isolated long at 10x with the 40x table');
  const bad = parseMarginTables([{ universe: [{ name: 'X', marginTableId: 60 }] }]);
  assert.not.ok(bad.ok);
  if (!bad.ok) assert.match(bad.error, /universe\[0\]\.maxLeverage must be a positive number/);
  const badTier = parseMarginTables({ universe: [], marginTables: [[50, { marginTiers: [
    { lowerBound: 'x', maxLeverage: 3 }] }]] });
  if (!badTier.ok) assert.match(badTier.error, /marginTables\[0\]\.marginTiers\[0\]/);
  else assert.unreachable('a malformed tier must be refused');
});

test('bands around the mark collect long and short notional; coverage of open interest', () => {
  const w1 = walletState(addressOf(1), 500, [
    position({ symbol: 'A', size: 10, entryPx: 90, positionValue: 1_000 }), // liq 52.63
  ]);
  const w2 = walletState(addressOf(2), 500, [
    position({ symbol: 'A', size: 10, entryPx: 90, positionValue: 1_000 }),
    position({ symbol: 'B', size: -5, entryPx: 210, positionValue: 1_000 }),
  ]); // A liq 57.89
  const w3 = walletState(addressOf(3), 1e9, [
    position({ symbol: 'A', size: -4, liquidationPx: 131 }), // venue price, short
    position({ symbol: 'A', size: 2, liquidationPx: 20 }), // below every band
  ]);
  const map = buildLiquidationMap('A', 100, [w1, w2, w3], 10_000,
    { bandWidthPct: 5, bandsEachSide: 10, marginTables: tables });
  assert.is(map.bands.length, 20);
  close(map.bands[0].priceLow, 50, 'lowest edge');
  close(map.bands[19].priceHigh, 150, 'highest edge');
  assert.equal(map.bands[0].longNotional, 1_000, '52.63 is in [50, 55)');
  assert.equal(map.bands[1].longNotional, 1_000, '57.89 is in [55, 60)');
  assert.equal(map.bands[16].shortNotional, 400, '131 is in [130, 135)');
  const totalLong = map.bands.reduce((s, band) => s + band.longNotional, 0);
  assert.is(totalLong, 2_000);
  assert.equal(map.outsideNotional, { long: 200, short: 0 });
  assert.equal([map.positions, map.fromVenue, map.estimated], [4, 2, 2]);
  close(map.coverage, 2_600 / 20_000, 'coverage: seen notional over both sides of OI');
  assert.is(buildLiquidationMap('A', 100, [w1], 0, { bandWidthPct: 5, bandsEachSide: 1 })
    .coverage, null);
});

test('a price exactly on an edge falls in the band above it', () => {
  const short = position({ symbol: 'A', size: -1, liquidationPx: 110 });
  const w = walletState(addressOf(1), 1e9, [short]);
  const map = buildLiquidationMap('A', 100, [w], 1e6, { bandWidthPct: 5, bandsEachSide: 4 });
  assert.is(map.bands.findIndex((band) => band.shortNotional > 0), 6); // [110, 115)
});

test('impossible band options are refused', () => {
  const opts = (bandWidthPct: number, bandsEachSide: number) => () =>
    buildLiquidationMap('A', 100, [], 1, { bandWidthPct, bandsEachSide });
  assert.throws(opts(0, 10), /bandWidthPct/);
  assert.throws(opts(10, 10), /bandWidthPct \* bandsEachSide < 100/);
  assert.throws(opts(1, 0), /bandsEachSide/);
  assert.throws(opts(0.1, 201), /bandsEachSide/);
  assert.throws(() => buildLiquidationMap('A', 0, [], 1, { bandWidthPct: 1, bandsEachSide: 1 }),
    /markPx/);
});

test.run();
