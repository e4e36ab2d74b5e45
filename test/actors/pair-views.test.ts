// A pair's views serialized with the CVD histories' text kept between publishes
// (actors/views/list-json-memo.ts) are byte for byte what JSON.stringify makes of the same
// snapshot, figures rounded alike (core/json-numbers.ts): on the first publish, on publishes
// where nothing moved, after an interval closed (a point added, the window slid), after a value
// in the middle changed (a restored state) and with non-finite numbers; and a list that
// shrinks is not served from the longer text.
import { stringifyRounded } from '../../core/json-numbers.js';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createPairAnalytics, onTrade } from '../../kernels/pair-analytics.js';
import { absorptionsJson, cvdHistoryJson, whalesJson } from '../../kernels/pair-json.js';
import {
  createPairSnapshot, snapshotPairAnalytics, type PairAnalyticsSnapshot,
} from '../../kernels/pair-snapshot.js';
import { CVD_INTERVAL_MS } from '../../kernels/timeframes.js';
import {
  createPairViewsMemo, encodePairViews, type Freshness, type WhaleAddresses,
} from '../../actors/shard/pair-views.js';
import { ListJsonMemo } from '../../actors/views/list-json-memo.js';

const t0 = Date.parse('2026-02-06T15:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString();

/** The views as plain JSON.stringify writes them: the reference. */
function plainViews(symbol: string, s: PairAnalyticsSnapshot, addresses: WhaleAddresses,
  f: Freshness): Record<string, string> {
  const fresh = { updatedAt: iso(f.updatedAtMs), cadenceMs: f.cadenceMs };
  const deep = {
    symbol, price: s.price, cvd: s.cvd,
    cvdHistory: (cvdHistoryJson(s)['5m'] ?? []).map((p) => ({ time: iso(p.tsMs), cvd: p.cvd,
      delta: p.delta })),
    obi: s.obi, ofi: s.ofi, vpin: s.vpin, vpinLevel: s.vpinLevel, kyleLambda: s.kyleLambda,
    whales: whalesJson(s).map((w) => ({ address: addresses.get(w.tsMs) ?? null, side: w.side,
      notional: w.notional, price: w.price, size: w.size, time: iso(w.tsMs) })),
    absorption: absorptionsJson(s).map((a) => ({ time: iso(a.tsMs), kind: a.kind,
      notional: a.buyNotional + a.sellNotional, buyNotional: a.buyNotional,
      sellNotional: a.sellNotional, moveBps: a.moveBps })),
    regime: s.regime, signalScore: s.score === null ? null : Math.round(s.score),
    signalDirection: s.direction, basis: f.basis, stale: f.stale, asOf: iso(f.asOfMs), ...fresh,
  };
  const history: Record<string, [number, number][]> = {};
  for (const [name, points] of Object.entries(cvdHistoryJson(s))) {
    history[name] = points.map((p) => [p.tsMs, p.cvd]);
  }
  const cvd = { symbol, cvd: s.cvd, history, basis: f.basis, stale: f.stale,
    asOf: iso(f.asOfMs), ...fresh };
  return { 'deep-view': stringifyRounded(deep), cvd: stringifyRounded(cvd) };
}

function tradedSnapshot(): PairAnalyticsSnapshot {
  const s = createPairAnalytics({ whaleFallbackUsd: 1000, whaleFloorUsd: 0 });
  for (let i = 0; i < 400; i++) {
    onTrade(s, t0 + i * 37_000, 100 + Math.sin(i), 20 + (i % 7) * 300, i % 3 === 0 ? -1 : 1);
  }
  return snapshotPairAnalytics(s, createPairSnapshot(s.options));
}

/** Appends a closed point to every interval's history (full: the oldest slides out). */
function closeIntervals(s: PairAnalyticsSnapshot, n: number): void {
  s.cvdHistory.forEach((h, k) => {
    if (h.count === h.tsMs.length) {
      h.tsMs.copyWithin(0, 1);
      h.cvd.copyWithin(0, 1);
      h.delta.copyWithin(0, 1);
      h.count -= 1;
    }
    const last = h.count === 0 ? t0 : h.tsMs[h.count - 1]!;
    h.tsMs[h.count] = last + CVD_INTERVAL_MS[k]!;
    h.cvd[h.count] = n * 1234.5678 - k;
    h.delta[h.count] = -n / 3;
    h.count += 1;
  });
}

test('views with the kept history text are the plain JSON, publish after publish', () => {
  const s = tradedSnapshot();
  const addresses: WhaleAddresses = new Map([[t0 + 37_000, '0xab']]);
  const memo = createPairViewsMemo();
  const f: Freshness = { updatedAtMs: t0, cadenceMs: 1000, stale: false, asOfMs: t0,
    basis: 'trades' };
  const check = (message: string) => {
    const views = encodePairViews('BTC', s, addresses, f, memo);
    const plain = plainViews('BTC', s, addresses, f);
    for (const name of ['deep-view', 'cvd']) {
      assert.is(Buffer.from(views[name]!).toString(), plain[name], `${message}: ${name}`);
    }
  };
  assert.ok(s.cvdHistory[1]!.count > 3, 'the 5m history has points');
  check('first publish');
  check('nothing moved');
  for (let n = 0; n < 250; n++) closeIntervals(s, n);
  assert.is(s.cvdHistory[0]!.count, s.cvdHistory[0]!.tsMs.length, 'full: the window slides');
  check('after intervals closed');
  closeIntervals(s, 999);
  check('one more closed');
  s.cvdHistory[1]!.cvd[5] = 42;
  check('a value in the middle changed');
  s.cvdHistory[1]!.cvd[6] = NaN;
  s.cvdHistory[0]!.cvd[0] = Infinity;
  check('non-finite values');
  check('non-finite values again');
  s.cvdHistory.forEach((h) => { h.count = Math.max(0, h.count - 7); });
  check('shorter lists');
  s.cvdHistory.forEach((h) => { h.count = 0; });
  check('empty lists');
});

test('a list memo rebuilds on any change and reuses its text only for the same rows', () => {
  let built = 0;
  const memo = new ListJsonMemo((c, i) => {
    built += 1;
    return `${c[0]![i]}`;
  });
  const column = new Float64Array([1, 2, 3, 4]);
  assert.is(memo.json([column], 3), '[1,2,3]');
  assert.is(memo.json([column], 3), '[1,2,3]');
  assert.is(built, 3, 'the same rows: no element written again');
  column[1] = 7;
  assert.is(memo.json([column], 3), '[1,7,3]');
  assert.is(memo.json([column], 4), '[1,7,3,4]');
  assert.is(memo.json([column], 0), '[]');
});

test.run();
