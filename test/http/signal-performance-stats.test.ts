// /signals/performance's statistics over HTTP, from the real lmdb signal store: the new fields
// against the OpenAPI document, the CSV columns, and the agreement with /signals/history: the
// answer's [from, to) passed to history as start and end lists the same signals, with outcomes
// on exactly those it counts as evaluated (an outcome is known from its evaluated_at on).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Ajv2020 } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import { rm } from 'node:fs/promises';
import { ManualClock } from '../../core/clock.js';
import type { Bar, Grade } from '../../core/messages.js';
import { evaluateBaseline } from '../../actors/signals/baseline.js';
import { evaluateOutcome } from '../../actors/signals/outcome.js';
import type { EntrySignal } from '../../actors/signals/types.js';
import { buildOpenApiDocument } from '../../http/openapi/document.js';
import { PERFORMANCE_CSV_FIELDS } from '../../http/performance-csv.js';
import { openSignalStore } from '../../persistence/signals.js';
import { openStore } from '../../persistence/store.js';
import { tempDir } from '../helpers/eventually.js';
import { bearer, get, startTestServer } from './helpers/harness.js';

const T0 = Date.parse('2026-11-20T00:00:00.000Z');
const BAR = 300_000;
const HOUR = 3_600_000;
const NOW = T0 + 2 * 24 * HOUR;

function signal(barMs: number, grade: Grade, side: 'long' | 'short'): EntrySignal {
  const sign = side === 'long' ? 1 : -1;
  return {
    signal_id: `BTC-5m-${barMs}-${side}`, symbol: 'BTC', timeframe: '5m', side, grade,
    score: 30 * sign, bar_time: new Date(barMs).toISOString(), regime: 'ranging',
    confirmed: true, flow_source: 'bar_delta',
    logics: { liquidity_grab: true, flow_rejection: false, absorption: false,
      cvd_divergence: false, structure_shift: false, level_confluence: false },
    plan: { entry: 100, stop: 100 - 2 * sign, t1: 100 + 3 * sign, t2: 100 + 6 * sign, r_t1: 1.5,
      r_t2: 3 },
    price_at_signal: 100,
  };
}

/** 48 bars after the signal closing at `close`, touching `touch` in bar 3 when given. */
function windowBars(s: EntrySignal, close: number, touch?: number): Bar[] {
  const fromMs = Date.parse(s.bar_time) + BAR;
  return Array.from({ length: 48 }, (_, i) => {
    const high = i === 3 && touch !== undefined ? Math.max(100.5, touch) : 100.5;
    const low = i === 3 && touch !== undefined ? Math.min(99.5, touch) : 99.5;
    return { symbol: 'BTC', timeframe: '5m', openMs: fromMs + i * BAR, open: 100, high, low,
      close: i === 47 ? close : 100, volume: 1, buyNotional: 1, sellNotional: 1, cvdClose: 0,
      trades: 1 };
  });
}

test('new fields conform, CSV has them, and history lists what performance counts', async () => {
  const dir = await tempDir();
  const clock = new ManualClock(NOW);
  const store = await openStore({ dataDir: dir, clock, watchKeys: false });
  const signals = openSignalStore<EntrySignal>(store.root);
  const evaluate = async (s: EntrySignal, bars: Bar[]) => {
    const signalMs = Date.parse(s.bar_time) + BAR;
    await signals.claim(s, signalMs);
    await signals.scheduleOutcome(s.signal_id, '', signalMs, signalMs + 4 * HOUR);
    await signals.completeOutcome(s.signal_id,
      evaluateOutcome(s, bars) as unknown as Record<string, unknown>,
      evaluateBaseline(s, bars, []) as unknown as Record<string, unknown>);
  };
  // 24 evaluated signals an hour apart: B and C, both sides, t1, stop or a drift.
  for (let i = 0; i < 24; i++) {
    const s = signal(T0 + i * HOUR, i % 2 === 0 ? 'B' : 'C', i % 3 === 0 ? 'short' : 'long');
    const sign = s.side === 'long' ? 1 : -1;
    const touch = i % 4 === 0 ? 100 + 3.2 * sign : i % 4 === 1 ? 100 - 2.2 * sign : undefined;
    await evaluate(s, windowBars(s, 100 + (i % 5 - 2) * 0.3, touch));
  }
  // Evaluated ahead of the answers' clock (the pipeline's market time ran ahead): its
  // evaluated_at is after now, so at now it has no outcome, in either answer.
  await evaluate(signal(NOW - 2 * HOUR - BAR, 'B', 'long'), windowBars(signal(0, 'B', 'long'),
    101));
  // Its bar closed exactly at now: inside the window of both, not evaluated.
  const last = signal(NOW - BAR, 'C', 'long');
  await signals.claim(last, NOW);
  const t = await startTestServer({ nowMs: NOW, signals });
  try {
    const pro = bearer(t.keyOf.Pro);
    const perf = await get(`${t.url}/api/v1/signals/performance?window=7d&groupBy=grade`, pro);
    assert.is(perf.status, 200, perf.text);
    const addFormats = formats as unknown as typeof formats.default;
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema({ ...(buildOpenApiDocument() as object), $id: 'openapi' });
    const ref = 'openapi#/paths/~1api~1v1~1signals~1performance/get/responses/200/content/' +
      'application~1json/schema';
    assert.ok(ajv.validate({ $ref: ref }, perf.json), ajv.errorsText(ajv.errors));
    const b = perf.json.groups.find((g: { group: string }) => g.group === 'B');
    for (const name of ['hitRateLow', 'hitRateHigh', 'expectancyRLow', 'expectancyRHigh',
      'baselineRandomR', 'edgeR', 'edgeRLow', 'edgeRHigh', 'edgePValue']) {
      assert.type(b[name], 'number', name);
    }
    assert.is(b.intervalMethod, 'bootstrap');
    assert.is(b.baselineEvaluated, 12);
    assert.is(b.trendEvaluated, 0, 'no bars before: no trend');
    assert.is(b.baselineTrendR, null);
    assert.type(b.edgeSignificant, 'boolean');
    assert.is(perf.json.informationCoefficient.n, 24);
    assert.equal(perf.json.calibration.tooFew, ['A+', 'A', 'B', 'C', 'D']);
    assert.is(perf.json.calibration.lettersInOrder, null);
    assert.is(perf.json.multipleComparisons.groupsCompared, 2);

    // Agreement: the same [from, to) on history lists the same signals, with outcomes on as
    // many as performance counts evaluated, grade by grade.
    const { from, to } = perf.json;
    for (const g of perf.json.groups) {
      const h = await get(`${t.url}/api/v1/signals/history?grade=${encodeURIComponent(g.group)}` +
        `&start=${from}&end=${to}&limit=1000`, pro);
      assert.is(h.status, 200, h.text);
      const withOutcome = h.json.signals.filter((s: { outcome: unknown }) => s.outcome !== null);
      assert.equal([g.group, h.json.count, withOutcome.length], [g.group, g.count, g.evaluated]);
    }
    assert.equal(perf.json.groups.map((g: { group: string; count: number; evaluated: number }) =>
      [g.group, g.count, g.evaluated]), [['B', 13, 12], ['C', 13, 12]]);

    // A new outcome after the answers were kept: both answers see it (only it is read again).
    const late = signal(T0 + 30 * HOUR + BAR, 'B', 'long');
    await evaluate(late, windowBars(late, 100.5));
    const again = await get(`${t.url}/api/v1/signals/performance?window=7d&groupBy=grade`, pro);
    assert.equal(again.json.groups.map((g: { group: string; count: number; evaluated: number }) =>
      [g.group, g.count, g.evaluated]), [['B', 14, 13], ['C', 13, 12]]);
    const listed = await get(`${t.url}/api/v1/signals/history?grade=B&start=${from}&end=${to}` +
      '&limit=1000', pro);
    assert.is(listed.json.signals.filter((s: { outcome: unknown }) => s.outcome !== null).length,
      13);

    const csv = await get(`${t.url}/api/v1/signals/performance?window=7d&format=csv`, pro);
    assert.is(csv.status, 200);
    assert.match(csv.headers.get('content-type') ?? '', /^text\/csv/);
    const lines = csv.text.trimEnd().split('\r\n');
    assert.is(lines[0], PERFORMANCE_CSV_FIELDS.join(','));
    assert.is(lines.length, 3);
    assert.ok(lines[1].startsWith('B,14,13,'), lines[1]);
  } finally {
    await t.close();
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
});

test.run();
