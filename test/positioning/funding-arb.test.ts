// Funding arbitrage arithmetic on 1, 4 and 8 h intervals and missing venues; merging the venue
// adapters' answers.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { FundingEvent, VenueFunding } from '../../core/messages.js';
import {
  annualizedPct, buildFundingArb, fundingArbItem,
} from '../../actors/positioning/funding-arb.js';
import { collectFunding, type FundingSource } from '../../actors/positioning/funding-source.js';

const near = (actual: number, expected: number, what: string) =>
  assert.ok(Math.abs(actual - expected) < 1e-9 * Math.max(1, Math.abs(expected)),
    `${what}: ${actual} vs ${expected}`);

test('annualized percent uses the venue interval', () => {
  near(annualizedPct(0.0001, 1), 87.6, '1 h');
  near(annualizedPct(0.0004, 4), 87.6, '4 h');
  near(annualizedPct(0.0016, 8), 175.2, '8 h');
  near(annualizedPct(-0.0008, 8), -87.6, 'negative');
  assert.throws(() => annualizedPct(0.0001, 0), /intervalHours must be a positive number/);
  assert.throws(() => annualizedPct(0.0001, Number.NaN), /was NaN/);
});

const mixed: VenueFunding[] = [
  { venue: 'home', rate: 0.0001, intervalHours: 1 }, // 0.0001 / h
  { venue: 'exchange_b', rate: 0.0004, intervalHours: 4 }, // 0.0001 / h
  { venue: 'exchange_c', rate: 0.0016, intervalHours: 8 }, // 0.0002 / h
  { venue: 'exchange_e', rate: -0.0008, intervalHours: 8 }, // -0.0001 / h
];

test('spread on hourly-equivalent rates; raw rates and null for the missing venue', () => {
  const item = fundingArbItem({ symbol: 'BTC', venues: mixed })!;
  assert.equal([item.home, item.exchange_b, item.exchange_c, item.exchange_d, item.exchange_e],
    [0.0001, 0.0004, 0.0016, null, -0.0008]);
  assert.equal([item.longVenue, item.shortVenue], ['exchange_e', 'exchange_c']);
  near(item.spread, 0.0003, 'spread');
  near(item.maxSpread, 0.0003, 'maxSpread equals spread, not 0.0016 - (-0.0008)');
  near(item.spreadAnnualized, 262.8, 'spread annualized');
  assert.is(item.venues.exchange_d, null);
  assert.equal(item.venues.exchange_b!.intervalHours, 4);
  near(item.venues.exchange_c!.annualized, 175.2, 'venue annualized');
  near(item.venues.home!.annualized, 87.6, 'home annualized');
  assert.equal(Object.keys(item.venues), ['home', 'exchange_b', 'exchange_c', 'exchange_d',
    'exchange_e']);
});

test('equal hourly rates: legs on different venues, earliest venue first, zero spread', () => {
  const item = fundingArbItem({ symbol: 'ETH', venues: mixed.slice(0, 2) })!;
  assert.equal([item.longVenue, item.shortVenue, item.spread], ['home', 'exchange_b', 0]);
});

test('only pairs on home and at least one other venue; bad entries count as absent', () => {
  const { pairs } = buildFundingArb([
    { symbol: 'ONLYHOME', venues: [mixed[0]] },
    { symbol: 'NOHOME', venues: mixed.slice(1) },
    { symbol: 'BADOTHER', venues: [mixed[0], { venue: 'exchange_b', rate: 1, intervalHours: 0 }] },
    { symbol: 'NAN', venues: [mixed[0], { venue: 'exchange_c', rate: Number.NaN,
      intervalHours: 8 }] },
    { symbol: 'ODD', venues: [mixed[0], { venue: 'exchange_z' as 'home', rate: 1,
      intervalHours: 1 }] },
    { symbol: 'ETH', venues: mixed.slice(0, 2) },
    { symbol: 'BTC', venues: mixed },
    { symbol: 'BTC', venues: mixed.slice(0, 2) }, // a repeated symbol keeps its first row
  ]);
  assert.equal(pairs.map((p) => p.symbol), ['BTC', 'ETH'], 'widest spread first');
  assert.is(pairs[0].exchange_c, 0.0016);
});

test('a venue listed twice keeps its first entry', () => {
  const item = fundingArbItem({ symbol: 'X', venues: [mixed[0], mixed[1],
    { venue: 'exchange_b', rate: 9, intervalHours: 1 }] })!;
  assert.is(item.exchange_b, 0.0004);
});

test('funding events of the universe feed are rows as they are', () => {
  const event: FundingEvent = { type: 'funding', tsMs: 1, symbol: 'SOL', venues: mixed };
  assert.equal(buildFundingArb([event]).pairs.map((p) => p.symbol), ['SOL']);
});

test('each pair carries its home market\'s open interest, volume and tracked flag', () => {
  const rows = [{ symbol: 'BTC', venues: mixed }, { symbol: 'BLZ', venues: mixed },
    { symbol: 'NEW', venues: mixed }];
  const markets = [
    { symbol: 'BTC', openInterest: 2.6e9, volume24h: 2.1e9, tracked: true },
    { symbol: 'BLZ', openInterest: 94_000, volume24h: 310_000, tracked: false },
  ];
  const bySymbol = Object.fromEntries(buildFundingArb(rows, markets).pairs.map((p) =>
    [p.symbol, [p.openInterest, p.volume24h, p.tracked]]));
  assert.equal(bySymbol, { BTC: [2.6e9, 2.1e9, true], BLZ: [94_000, 310_000, false],
    NEW: [null, null, false] }, 'a pair missing from the universe has nulls, not zeros');
});

test('collectFunding merges adapters; a failing or silent one leaves its venue null', async () => {
  const source = (venue: 'exchange_d' | 'exchange_e', behaviour: 'ok' | 'fail' | 'throw' | 'hang'):
    FundingSource => ({
    venue,
    fetchFunding: async (symbols) => {
      if (behaviour === 'throw') throw new Error('boom');
      if (behaviour === 'hang') return new Promise(() => {});
      if (behaviour === 'fail') return { ok: false, error: 'HTTP 503' };
      return { ok: true, value: symbols.map((symbol) => ({ symbol, venues: [
        { venue, rate: 0.0002, intervalHours: 4 },
        { venue: 'home', rate: 99, intervalHours: 1 }, // not its venue: ignored
      ] })) };
    },
  });
  const base = [{ symbol: 'BTC', venues: [mixed[0]] }];
  const ok = await collectFunding(base, [source('exchange_d', 'ok')], ['BTC'], 1_000);
  assert.equal(ok.errors, []);
  const item = buildFundingArb(ok.rows).pairs[0];
  assert.equal([item.home, item.exchange_d], [0.0001, 0.0002]);
  for (const behaviour of ['fail', 'throw', 'hang'] as const) {
    const got = await collectFunding(base, [source('exchange_e', behaviour)], ['BTC'], 20);
    assert.is(got.errors.length, 1, behaviour);
    assert.match(got.errors[0], /^exchange_e: /);
    assert.equal(buildFundingArb(got.rows).pairs, [], 'home alone is no arbitrage');
  }
});

test.run();
