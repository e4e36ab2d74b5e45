// A day of market time with a stop in the middle: a real pair engine closes 1-minute points,
// the recorder writes them to a real lmdb store that is closed and reopened across the stop,
// and the real HTTP front serves them: points, gaps, aggregation, paging, plan lookback, ETag,
// and JSON, CSV and Arrow read back against what was recorded.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { rm } from 'node:fs/promises';
import { tableFromIPC } from 'apache-arrow';
import { Ajv2020 } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import { buildOpenApiDocument } from '../../http/openapi/document.js';
import { ManualClock } from '../../core/clock.js';
import type { HistoryPoint } from '../../core/history-point.js';
import { roundSignificant } from '../../core/json-numbers.js';
import { silentLogger } from '../../core/logger.js';
import type { MarketEvent } from '../../core/messages.js';
import { createPairEngine, type PairEngine } from '../../actors/shard/pair-engine.js';
import { HistoryRecorder } from '../../actors/runtime/history-recorder.js';
import { aggregatePoints } from '../../persistence/history-aggregate.js';
import { openStore, type Store } from '../../persistence/store.js';
import { arrowReady } from '../../http/history-formats.js';
import { bearer, get, startTestServer } from '../http/helpers/harness.js';
import { tempDir } from '../helpers/eventually.js';

const DAY0 = Date.parse('2026-11-21T00:00:00.000Z');
const MIN = 60_000;
const HOUR = 3_600_000;
const STOP_MS = DAY0 + 12 * HOUR;
const RESTART_MS = DAY0 + 14 * HOUR;
const DAY_END = DAY0 + 24 * HOUR;

/** A deterministic market: ctx every 10 s, a book every 5 s, a trade every 4 s. */
function* marketEvents(fromMs: number, toMs: number): Generator<MarketEvent> {
  for (let t = fromMs; t < toMs; t += 1_000) {
    const i = (t - DAY0) / 1_000;
    const mid = 100 + 3 * Math.sin(i / 900) + 0.2 * Math.sin(i / 7);
    if (i % 10 === 0) {
      yield { type: 'ctx', symbol: 'SOL', tsMs: t, markPx: mid, prevDayPx: 100,
        dayNtlVlm: 5e7, openInterest: 1e5 + i, fundingRate: 0.00001, oraclePx: mid, midPx: mid };
    }
    if (i % 5 === 0) {
      yield { type: 'book', symbol: 'SOL', tsMs: t, bids: [mid - 0.01, 10 + (i % 7), mid - 0.02, 5],
        asks: [mid + 0.01, 8 + (i % 5), mid + 0.02, 5] };
    }
    if (i % 4 === 0) {
      yield { type: 'trade', symbol: 'SOL', tsMs: t, price: mid, size: 1 + (i % 3),
        side: i % 8 === 0 ? -1 : 1, tradeId: String(i), buyer: null, seller: null };
    }
  }
}

/** Runs the engine over [fromMs, toMs), publishing once a simulated second into the recorder. */
function run(engine: PairEngine, recorder: HistoryRecorder, fromMs: number, toMs: number,
  recorded: HistoryPoint[]): void {
  let lastPublishMs = fromMs;
  for (const event of marketEvents(fromMs, toMs)) {
    engine.onEvent(event);
    if (event.tsMs - lastPublishMs >= 30_000) {
      lastPublishMs = event.tsMs;
      const points = engine.publish(event.tsMs)?.history ?? [];
      recorded.push(...points);
      recorder.onHistory({ type: 'shardHistory', shardId: 0, generation: 1, points });
    }
  }
  const points = engine.publish(toMs)?.history ?? [];
  recorded.push(...points);
  recorder.onHistory({ type: 'shardHistory', shardId: 0, generation: 1, points });
}

const iso = (ms: number) => new Date(ms).toISOString();

/** A recorded point as the JSON answer spells it for the candle and the given metrics. */
function asJson(p: HistoryPoint, fields: readonly (keyof HistoryPoint)[]): Record<string, unknown> {
  const out: Record<string, unknown> = { t: iso(p.tMs) };
  // JSON and CSV answers write at most 10 significant digits (Arrow keeps every bit).
  for (const f of fields) out[f] = typeof p[f] === 'number' ? roundSignificant(p[f]) : p[f];
  return out;
}

const CANDLE = ['open', 'high', 'low', 'close', 'volume'] as const;

/** The answer's schema in the OpenAPI document. */
function historySchemaCheck(): (body: unknown) => string | null {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  (formats as unknown as typeof formats.default)(ajv);
  ajv.addSchema({ ...buildOpenApiDocument(), $id: 'openapi' });
  const validate = ajv.getSchema('openapi#/components/schemas/History')!;
  return (body) => (validate(body) ? null : ajv.errorsText(validate.errors));
}

test('a day with a stop: points, gaps, aggregation, paging, lookback and three formats',
  async () => {
    const dir = await tempDir();
    const clock = new ManualClock(DAY0);
    const open = () => openStore({ dataDir: dir, clock, watchKeys: false });
    let store: Store = await open();
    const recorded: HistoryPoint[] = [];
    try {
      let recorder = new HistoryRecorder(store.bulk, { minuteRetentionDays: 7,
        hourRetentionDays: 180 }, clock, silentLogger);
      run(createPairEngine('SOL', { cadenceMs: 1_000 }), recorder, DAY0, STOP_MS, recorded);
      await recorder.close();
      await store.close();
      // Down for two hours; a new process with a fresh engine picks up at RESTART_MS.
      store = await open();
      recorder = new HistoryRecorder(store.bulk, { minuteRetentionDays: 7, hourRetentionDays: 180 },
        clock, silentLogger);
      run(createPairEngine('SOL', { cadenceMs: 1_000 }), recorder, RESTART_MS, DAY_END + 30_000,
        recorded);
      await recorder.close();
      clock.set(DAY_END + 60_000);

      // The minute open at the stop was never closed: it is part of the gap, never invented.
      assert.is(recorded.length, 12 * 60 - 1 + 10 * 60);
      assert.is(recorded[0].tMs, DAY0);
      assert.is(recorded[12 * 60 - 2].tMs, STOP_MS - 2 * MIN);
      assert.ok(recorded.every((p) => p.open !== null && p.volume > 0 && p.cvd !== null));
      assert.ok(recorded.every((p) => p.fundingAnnualized !== null &&
        Math.abs(p.fundingAnnualized - 0.00001 * 24 * 365 * 100) < 1e-9));

      const t = await startTestServer({ nowMs: clock.nowMs(), history: recorder.store });
      try {
        const pro = bearer(t.keyOf.Pro);
        const whale = bearer(t.keyOf.Whale);
        const dayQuery = `start=${iso(DAY0)}&end=${iso(DAY_END)}`;
        const base = `${t.url}/api/v1/history/SOL`;

        // 1m: every recorded point, values as recorded, the stop as the one gap.
        const metrics = ['openInterest', 'fundingRate', 'fundingAnnualized', 'cvd', 'vpin', 'obi',
          'ofi', 'kyleLambda', 'signalScore', 'regime'] as const;
        const all = await get(`${base}?interval=1m&limit=5000&${dayQuery}&metrics=candle,` +
          metrics.join(','), pro);
        assert.is(all.status, 200, all.text);
        assert.is(all.json.symbol, 'SOL');
        assert.is(all.json.interval, '1m');
        assert.is(all.json.cadenceMs, 60_000);
        assert.is(all.headers.get('x-producer-cadence-ms'), '60000');
        assert.equal(all.json.points, recorded.map((p) => asJson(p, [...CANDLE, ...metrics])));
        assert.equal(all.json.coverage, { from: iso(DAY0), to: iso(DAY_END),
          gaps: [{ from: iso(STOP_MS - MIN), to: iso(RESTART_MS) }] });
        assert.is(all.json.nextCursor, null);
        assert.is(all.json.updatedAt, iso(DAY_END));
        assert.is(historySchemaCheck()(all.json), null, 'the answer follows its OpenAPI schema');

        // 1h: the hourly rollup, the same rule as aggregating the recorded minutes.
        const hourly = await get(`${base}?interval=1h&${dayQuery}`, pro);
        assert.equal(hourly.json.points,
          aggregatePoints(recorded, HOUR).map((p) => asJson(p, CANDLE)));
        assert.is(hourly.json.points.length, 22);
        assert.equal(hourly.json.coverage.gaps, [{ from: iso(STOP_MS), to: iso(RESTART_MS) }]);
        const h0 = recorded.filter((p) => p.tMs < DAY0 + HOUR);
        assert.is(hourly.json.points[0].open, roundSignificant(h0[0].open!));
        assert.is(hourly.json.points[0].high,
          roundSignificant(Math.max(...h0.map((p) => p.high!))));
        assert.is(hourly.json.points[0].low, roundSignificant(Math.min(...h0.map((p) => p.low!))));
        assert.is(hourly.json.points[0].close, roundSignificant(h0[h0.length - 1].close!));
        const volume = h0.reduce((sum, p) => sum + p.volume, 0);
        // Within the 10 significant digits the answer writes.
        assert.ok(Math.abs(hourly.json.points[0].volume - volume) <= volume * 1e-9);
        const daily = await get(`${base}?interval=1d&${dayQuery}&metrics=candle,cvd`, whale);
        // Days are summed from the hours (the same sums, added in hour order).
        assert.equal(daily.json.points, aggregatePoints(aggregatePoints(recorded, HOUR), 24 * HOUR)
          .map((p) => asJson(p, [...CANDLE, 'cvd'])));

        // 15m pages of 7 through nextCursor: every interval exactly once, in order.
        const expected15 = aggregatePoints(recorded, 15 * MIN).map((p) => asJson(p, CANDLE));
        const paged: unknown[] = [];
        let url = `${base}?interval=15m&limit=7&${dayQuery}`;
        for (let pages = 0; ; pages++) {
          const page = await get(url, whale);
          assert.is(page.status, 200, page.text);
          paged.push(...page.json.points);
          if (page.json.nextCursor === null) break;
          assert.ok(pages < 20);
          url = `${base}?interval=15m&limit=7&cursor=${page.json.nextCursor}`;
        }
        assert.equal(paged, expected15);

        // ETag and 304.
        const again = await get(`${base}?interval=1h&${dayQuery}`,
          { ...pro, 'if-none-match': hourly.headers.get('etag')! });
        assert.is(again.status, 304);

        // CSV: the same values, one line per point.
        const csv = await get(`${base}?interval=1m&limit=5000&${dayQuery}&format=csv`, pro);
        assert.is(csv.status, 200);
        assert.match(csv.headers.get('content-type')!, /text\/csv/);
        const lines = csv.text.trim().split('\r\n');
        assert.is(lines[0], 't,open,high,low,close,volume');
        assert.is(lines.length, recorded.length + 1);
        const [tText, ...numbers] = lines[1].split(',');
        assert.is(tText, iso(recorded[0].tMs));
        assert.equal(numbers.map(Number), CANDLE.map((f) => roundSignificant(recorded[0][f]!)));

        // Arrow, read back with the same library: timestamp[ms, UTC] first, a column per field.
        await arrowReady();
        const response = await fetch(`${base}?interval=1h&${dayQuery}&format=arrow` +
          '&metrics=candle,regime', { headers: pro });
        assert.is(response.status, 200);
        assert.is(response.headers.get('content-type'), 'application/vnd.apache.arrow.stream');
        const table = tableFromIPC(new Uint8Array(await response.arrayBuffer()));
        assert.equal(table.schema.fields.map((f) => f.name),
          ['t', 'open', 'high', 'low', 'close', 'volume', 'regime']);
        assert.is(String(table.schema.fields[0].type), 'Timestamp<MILLISECOND, UTC>');
        const hours = aggregatePoints(recorded, HOUR);
        assert.is(table.numRows, hours.length);
        assert.equal(table.toArray().map((row) => row.toJSON()), hours.map((p) => ({
          t: p.tMs, open: p.open, high: p.high, low: p.low, close: p.close, volume: p.volume,
          regime: p.regime })));

        // Plans: Pro reaches back 30 days, Whale the whole retention; Trader none.
        const early = `start=${iso(clock.nowMs() - 31 * 24 * HOUR)}&end=${iso(DAY_END)}`;
        const refused = await get(`${base}?interval=1h&${early}`, pro);
        assert.is(refused.status, 403);
        assert.is(refused.json.code, 'plan_required');
        assert.is(refused.json.requiredPlan, 'Whale');
        const whaleEarly = await get(`${base}?interval=1h&${early}`, whale);
        assert.is(whaleEarly.status, 200);
        assert.is(whaleEarly.json.points.length, 22);
        assert.is(whaleEarly.json.coverage.gaps[0].to, iso(DAY0), 'before the data: a gap');
        const defaulted = await get(`${base}?interval=1d`, pro);
        assert.is(defaulted.status, 200, 'a defaulted start is clamped to 30 days, not refused');
        assert.is((await get(`${base}?interval=1h`, bearer(t.keyOf.Trader))).status, 403);

        // Bad input: a 400 naming the parameter.
        const cases: [string, string][] = [
          ['metrics=candle,bogus', 'metrics'], ['interval=2m', 'interval'],
          ['start=yesterday', 'start'], [`start=${iso(DAY_END)}&end=${iso(DAY0)}`, 'end'],
          ['limit=0', 'limit'], ['limit=5001', 'limit'], ['cursor=zzz', 'cursor'],
          ['format=xml', 'format'],
        ];
        for (const [query, name] of cases) {
          const r = await get(`${base}?${query}`, whale);
          assert.is(r.status, 400, query);
          assert.is(r.json.code, 'bad_request');
          assert.match(r.json.detail, new RegExp(`^${name} `), query);
        }
        const first = await get(`${base}?interval=15m&limit=2&${dayQuery}`, whale);
        const foreign = await get(`${base}?interval=1h&cursor=${first.json.nextCursor}`, whale);
        assert.is(foreign.status, 400);
        assert.match(foreign.json.detail, /^cursor /);
        assert.is((await get(`${t.url}/api/v1/history/NOPE`, whale)).status, 404);

        // A repeated poll is the same answer until a new minute is recorded; then it moves on.
        const poll = async () => (await get(`${base}?interval=1m&limit=3`, whale)).json;
        const polled = await poll();
        assert.equal(await poll(), polled);
        assert.is(polled.points[2].t, iso(DAY_END - MIN));
        recorder.onHistory({ type: 'shardHistory', shardId: 0, generation: 1,
          points: [{ ...recorded[recorded.length - 1], tMs: DAY_END, close: 123.25 }] });
        await recorder.close();
        const moved = await poll();
        assert.is(moved.points[2].t, iso(DAY_END));
        assert.is(moved.points[2].close, 123.25);
      } finally {
        await t.close();
      }
    } finally {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

test.run();
