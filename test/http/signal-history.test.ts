// The signals' track record over HTTP: four stored signals whose outcomes come from crafted
// 5m bars through the real evaluator and the real lmdb signal store, against figures worked
// out by hand; history filters and paging; bad parameters.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { rm } from 'node:fs/promises';
import { ManualClock } from '../../core/clock.js';
import type { Bar, Grade } from '../../core/messages.js';
import { evaluateOutcome } from '../../actors/signals/outcome.js';
import type { EntrySignal } from '../../actors/signals/types.js';
import { openSignalStore } from '../../persistence/signals.js';
import { openStore } from '../../persistence/store.js';
import { tempDir } from '../helpers/eventually.js';
import { bearer, get, startTestServer } from './helpers/harness.js';

const T0 = Date.parse('2026-11-20T00:00:00.000Z');
const BAR = 300_000;
const HOUR = 3_600_000;

function signal(n: number, side: 'long' | 'short', grade: Grade, absorption = false):
  EntrySignal {
  const barMs = T0 + n * HOUR;
  const long = side === 'long';
  return {
    signal_id: `BTC-5m-${barMs}-${side}`, symbol: n === 2 ? 'ETH' : 'BTC', timeframe: '5m', side,
    grade, score: 10, bar_time: new Date(barMs).toISOString(), regime: 'ranging',
    confirmed: true, flow_source: 'bar_delta',
    logics: { liquidity_grab: true, flow_rejection: false, absorption, cvd_divergence: false,
      structure_shift: false, level_confluence: false },
    plan: long ? { entry: 100, stop: 98, t1: 103, t2: 106, r_t1: 1.5, r_t2: 3 }
      : { entry: 100, stop: 102, t1: 97, t2: 94, r_t1: 1.5, r_t2: 3 },
    price_at_signal: 100,
  };
}

/** 48 quiet bars (99.5..100.5, close 100) after the signal, with overrides by index. */
function windowBars(s: EntrySignal, overrides: Record<number, number[]>): Bar[] {
  const fromMs = Date.parse(s.bar_time) + BAR;
  return Array.from({ length: 48 }, (_, i) => {
    const [open, high, low, close] = overrides[i] ?? [100, 100.5, 99.5, 100];
    return { symbol: s.symbol, timeframe: '5m', openMs: fromMs + i * BAR, open, high, low,
      close, volume: 1, buyNotional: 1, sellNotional: 1, cvdClose: 0, trades: 1 };
  });
}

const close = (actual: number, expected: number, what: string) =>
  assert.ok(Math.abs(actual - expected) < 1e-9, `${what}: ${actual} vs ${expected}`);

test('performance figures match outcomes worked out by hand; history filters and pages',
  async () => {
    const dir = await tempDir();
    const clock = new ManualClock(T0 + 2 * 24 * HOUR);
    const store = await openStore({ dataDir: dir, clock, watchKeys: false });
    const signals = openSignalStore<EntrySignal>(store.root);
    // 1: A long, t1 first (high 103.5), closes 100: move 0, favorable 3.5, adverse -0.5, +1.5 R.
    // 2: A short, stop first (high 102.5), closes 100: move 0, favorable 0.5, adverse -2.5, -1 R.
    // 3: B long, neither, closes 101: move 1, favorable 1.2, adverse -0.5, +0.5 R.
    // 4: B long, not evaluated yet.
    const cases: [EntrySignal, Record<number, number[]> | null][] = [
      [signal(1, 'long', 'A'), { 2: [101, 103.5, 100.8, 103] }],
      [signal(2, 'short', 'A'), { 1: [100, 102.5, 99.8, 102] }],
      [signal(3, 'long', 'B', true), { 47: [100, 101.2, 99.9, 101] }],
      [signal(4, 'long', 'B'), null],
    ];
    for (const [s, overrides] of cases) {
      await signals.claim(s, clock.nowMs());
      const signalMs = Date.parse(s.bar_time) + BAR;
      await signals.scheduleOutcome(s.signal_id, '', signalMs, signalMs + 4 * HOUR);
      if (overrides === null) continue;
      const outcome = evaluateOutcome(s, windowBars(s, overrides), { entryEventId: '' });
      await signals.completeOutcome(s.signal_id, outcome as unknown as Record<string, unknown>);
    }
    const t = await startTestServer({ nowMs: clock.nowMs(), signals });
    try {
      const pro = bearer(t.keyOf.Pro);
      const perf = await get(`${t.url}/api/v1/signals/performance?window=all&groupBy=grade`, pro);
      assert.is(perf.status, 200, perf.text);
      assert.is(perf.headers.get('x-producer-cadence-ms'), '5000');
      const [a, b] = perf.json.groups;
      assert.equal([a.group, a.count, a.evaluated, a.t1Hits, a.stopHits], ['A', 2, 2, 1, 1]);
      close(a.hitRate, 0.5, 'A hitRate');
      close(a.avgMovePct, 0, 'A move');
      close(a.avgMaxFavorablePct, (3.5 + 0.5) / 2, 'A favorable');
      close(a.avgMaxAdversePct, (-0.5 - 2.5) / 2, 'A adverse');
      close(a.expectancyR, (1.5 - 1) / 2, 'A expectancy');
      assert.equal([b.group, b.count, b.evaluated, b.t1Hits, b.stopHits], ['B', 2, 1, 0, 0]);
      close(b.hitRate, 0, 'B hitRate');
      close(b.avgMovePct, 1, 'B move');
      close(b.avgMaxFavorablePct, 1.2, 'B favorable');
      close(b.avgMaxAdversePct, -0.5, 'B adverse');
      close(b.expectancyR, 0.5, 'B expectancy');

      const byLogic = await get(`${t.url}/api/v1/signals/performance?window=7d&groupBy=logic`,
        pro);
      assert.equal(byLogic.json.groups.map((g: { group: string; count: number }) =>
        [g.group, g.count]), [['absorption', 1], ['liquidity_grab', 4]]);
      const bySymbol = await get(`${t.url}/api/v1/signals/performance?groupBy=symbol`, pro);
      assert.equal(bySymbol.json.groups.map((g: { group: string }) => g.group), ['BTC', 'ETH']);
      assert.is(bySymbol.json.window, '30d');

      // History: oldest first, outcomes attached once evaluated, filters, cursor paging.
      const all = await get(`${t.url}/api/v1/signals/history`, pro);
      assert.is(all.status, 200, all.text);
      assert.equal(all.json.signals.map((s: EntrySignal) => s.signal_id),
        cases.map(([s]) => s.signal_id));
      assert.is(all.json.signals[0].outcome.first_level_hit, 't1');
      assert.is(all.json.signals[3].outcome, null);
      const gradeA = await get(`${t.url}/api/v1/signals/history?grade=A%2B`, pro);
      assert.is(gradeA.json.count, 0);
      const eth = await get(`${t.url}/api/v1/signals/history?symbol=ETH`, pro);
      assert.equal(eth.json.signals.map((s: EntrySignal) => s.symbol), ['ETH']);
      const ids: string[] = [];
      let url = `${t.url}/api/v1/signals/history?limit=1&grade=B`;
      for (;;) {
        const page = await get(url, pro);
        ids.push(...page.json.signals.map((s: EntrySignal) => s.signal_id));
        if (page.json.nextCursor === null) break;
        url = `${t.url}/api/v1/signals/history?limit=1&grade=B&cursor=${page.json.nextCursor}`;
      }
      assert.equal(ids, [cases[2][0].signal_id, cases[3][0].signal_id]);
      const etag = all.headers.get('etag')!;
      assert.is((await get(`${t.url}/api/v1/signals/history`,
        { ...pro, 'if-none-match': etag })).status, 304);

      for (const query of ['signals/performance?window=1y', 'signals/performance?groupBy=weekday',
        'signals/history?grade=E', 'signals/history?timeframe=4h', 'signals/history?cursor=x',
        'signals/history?limit=1001', 'signals/history?start=soon',
        'signals/performance?format=xml']) {
        const r = await get(`${t.url}/api/v1/${query}`, pro);
        assert.is(r.status, 400, query);
        assert.is(r.json.code, 'bad_request');
      }
      assert.is((await get(`${t.url}/api/v1/signals/performance`, bearer(t.keyOf.Trader)))
        .status, 403);
    } finally {
      await t.close();
      await store.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

test('entry_event_id is null without an entry event, for outcomes stored with "" too',
  async () => {
    const dir = await tempDir();
    const clock = new ManualClock(T0 + 2 * 24 * HOUR);
    const store = await openStore({ dataDir: dir, clock, watchKeys: false });
    const signals = openSignalStore<EntrySignal>(store.root);
    // An outcome stored by an earlier version (""), one made now (no event), one that was sent.
    const stored: [EntrySignal, string | null][] = [
      [signal(1, 'long', 'A'), ''], [signal(3, 'long', 'B'), null], [signal(4, 'long', 'B'),
        'evt_0123456789abcdef01234567']];
    for (const [s, id] of stored) {
      await signals.claim(s, clock.nowMs());
      const signalMs = Date.parse(s.bar_time) + BAR;
      await signals.scheduleOutcome(s.signal_id, id ?? '', signalMs, signalMs + 4 * HOUR);
      const outcome = evaluateOutcome(s, windowBars(s, {}), { entryEventId: id });
      await signals.completeOutcome(s.signal_id, id === '' ? { ...outcome, entry_event_id: '' }
        : outcome as unknown as Record<string, unknown>);
    }
    const t = await startTestServer({ nowMs: clock.nowMs(), signals });
    try {
      const all = await get(`${t.url}/api/v1/signals/history`, bearer(t.keyOf.Pro));
      assert.is(all.status, 200, all.text);
      assert.equal(all.json.signals.map((s: any) => s.outcome.entry_event_id),
        [null, null, 'evt_0123456789abcdef01234567']);
      const spec = await get(`${t.url}/api/v1/openapi.json`, {});
      const history = spec.json.components.schemas.SignalHistory.properties.signals.items;
      const listed = history.properties.outcome.oneOf[0].properties.entry_event_id;
      assert.equal(listed.type, ['string', 'null']);
      const sent = spec.json.webhooks.signalOutcome.post.requestBody.content['application/json']
        .schema.properties.data.properties.entry_event_id;
      assert.is(sent.type, 'string', 'a delivery always carries the id');
    } finally {
      await t.close();
      await store.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

test.run();
