// The history store on a real lmdb store: batched 1-minute points, hourly rollups (also of a
// late point and after a reopen), pages that return every point once with their gaps, retention.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { rm } from 'node:fs/promises';
import { ManualClock } from '../../core/clock.js';
import { openHistoryStore, type HistoryStore } from '../../persistence/history.js';
import { aggregatePoints } from '../../persistence/history-aggregate.js';
import { readHistoryPage } from '../../persistence/history-query.js';
import { openStore } from '../../persistence/store.js';
import { tempDir } from '../helpers/eventually.js';
import { minutePoint } from '../helpers/history-points.js';

const T0 = Date.parse('2026-11-20T00:00:00.000Z');
const MIN = 60_000;
const HOUR = 3_600_000;


const open = (dir: string) => openStore({ dataDir: dir, clock: new ManualClock(T0),
  watchKeys: false });

/** A history store on a fresh lmdb store, flushed, closed and removed after `run`. */
async function withHistory(run: (history: HistoryStore) => Promise<void>): Promise<void> {
  const dir = await tempDir();
  const store = await open(dir);
  const history = openHistoryStore(store.bulk);
  try {
    await run(history);
  } finally {
    await history.flush(); // lmdb must not close under a write in flight
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
}

test('aggregation: first open, max high, min low, last close, summed volume, last levels', () => {
  const points = [0, 1, 2].map((i) => minutePoint('BTC', i));
  const [bucket] = aggregatePoints(points, 5 * MIN);
  assert.is(bucket.tMs, T0);
  assert.is(bucket.open, points[0].open);
  assert.is(bucket.high, Math.max(...points.map((p) => p.high!)));
  assert.is(bucket.low, Math.min(...points.map((p) => p.low!)));
  assert.is(bucket.close, points[2].close);
  assert.is(bucket.volume, 1000 + 1001 + 1002);
  assert.is(bucket.cvd, points[2].cvd);
  assert.is(bucket.regime, points[2].regime);
  assert.is(aggregatePoints([], HOUR).length, 0);
});

test('points, rollups, reopen, paging once each with gaps, late point, retention', async () => {
  const dir = await tempDir();
  let store = await open(dir);
  try {
    let history = openHistoryStore(store.bulk);
    // 0:00-2:59 recorded, 3:00-3:59 down, 4:00-4:29 recorded.
    const all = [...Array.from({ length: 180 }, (_, i) => minutePoint('BTC', i)),
      ...Array.from({ length: 30 }, (_, i) => minutePoint('BTC', 240 + i))];
    history.add(all.slice(0, 100));
    await history.flush();
    // Stopped at 1:40 and started again: the rest of hour 1 joins the minutes already stored.
    await store.close();
    store = await open(dir);
    history = openHistoryStore(store.bulk);
    history.add(all.slice(100, 180));
    await history.flush();
    assert.is(history.minutes('BTC', T0, T0 + 5 * HOUR).length, 180);
    assert.equal(history.minutes('BTC', T0, T0 + 5 * HOUR), all.slice(0, 180));
    assert.equal(history.minutes('BTC', T0 + 30 * MIN, T0 + 5 * HOUR, 7), all.slice(30, 37));
    assert.is(history.updatedAtMs('BTC'), T0 + 180 * MIN);
    // Hours 0 and 1 are over (the newest point is in hour 2): rolled.
    const rolled = history.hours('BTC', T0, T0 + 2 * HOUR);
    assert.equal(rolled, aggregatePoints(all.slice(0, 120), HOUR));

    await store.close();
    store = await open(dir);
    history = openHistoryStore(store.bulk);
    assert.is(history.updatedAtMs('BTC'), T0 + 180 * MIN, 'the newest point is found on reopen');
    history.add(all.slice(180));
    await history.flush();
    const hours = history.hours('BTC', T0, T0 + 5 * HOUR);
    assert.equal(hours.map((h) => (h.tMs - T0) / HOUR), [0, 1, 2, 4]);
    assert.equal(hours, aggregatePoints(all, HOUR), 'rolled and unrolled hours agree');

    // Pages of 7 at 5m: every point once, gaps only where the service was down.
    const seen: number[] = [];
    const gaps: string[] = [];
    let fromMs: number | null = T0;
    while (fromMs !== null) {
      const page = readHistoryPage(history, { symbol: 'BTC', intervalMs: 5 * MIN, fromMs,
        toMs: T0 + 5 * HOUR, limit: 7, nowMs: T0 + 270 * MIN });
      seen.push(...page.points.map((p) => p.tMs));
      const minuteOf = (ms: number) => (ms - T0) / MIN;
      gaps.push(...page.coverage.gaps.map((g) => `${minuteOf(g.fromMs)}-${minuteOf(g.toMs)}`));
      fromMs = page.nextFromMs;
    }
    assert.is(seen.length, 36 + 6);
    assert.is(new Set(seen).size, seen.length);
    assert.equal(seen, [...seen].sort((a, b) => a - b));
    assert.equal(gaps, ['180-240']);

    assert.throws(() => history.add([{ ...minutePoint('BTC', 30), tMs: T0 + 1 }]), /minute/);
    assert.throws(() => openHistoryStore(store.bulk, { minuteRetentionMs: 0 }), /positive/);

    // Retention: 1 hour of minutes and 3 hours of hours at 4:30.
    const trimmed = openHistoryStore(store.bulk, { minuteRetentionMs: HOUR,
      hourRetentionMs: 3 * HOUR });
    const deleted = await trimmed.prune(T0 + 270 * MIN);
    assert.ok(deleted > 0);
    assert.is(trimmed.minutes('BTC', T0, T0 + 5 * HOUR)[0].tMs, T0 + 240 * MIN);
    assert.equal(trimmed.hours('BTC', T0, T0 + 5 * HOUR).map((h) => (h.tMs - T0) / HOUR), [2, 4]);
  } finally {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
});

test('a late point in a rolled hour rolls that hour again, after a reopen too', async () => {
  const dir = await tempDir();
  let store = await open(dir);
  try {
    // Hours 0 and 1 recorded but minute 30, and the newest point in hour 2: both rolled.
    const points = Array.from({ length: 131 }, (_, i) => minutePoint('BTC', i))
      .filter((p) => p.tMs !== T0 + 30 * MIN);
    let history = openHistoryStore(store.bulk);
    history.add(points);
    await history.flush();
    assert.ok((history.hours('BTC', T0, T0 + HOUR)[0].high ?? Infinity) < 1_000);
    await store.close();
    // Minute 30 was never written, so a later process writes it (a settled minute would stay).
    store = await open(dir);
    history = openHistoryStore(store.bulk);
    history.add([{ ...minutePoint('BTC', 30), high: 1_000 }]);
    await history.flush();
    assert.is(history.hours('BTC', T0, T0 + HOUR)[0].high, 1_000);
    assert.is(history.minutes('BTC', T0 + 30 * MIN, T0 + 31 * MIN)[0].high, 1_000);
  } finally {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
});

test('a batch over many hours of two pairs, back into an hour it left: every point', () =>
  withHistory(async (history) => {
    // One add is one batch (one row put per pair and hour): 5 hours of BTC and ETH
    // interleaved, then a late BTC minute in hour 0, which the writer's two held hours left.
    const btc = Array.from({ length: 300 }, (_, i) => minutePoint('BTC', i));
    const eth = Array.from({ length: 300 }, (_, i) => minutePoint('ETH', i));
    const late = { ...minutePoint('BTC', 10), high: 2_000 };
    history.add([...btc.flatMap((p, i) => [p, eth[i]]), late]);
    await history.flush();
    const expectedBtc = btc.map((p, i) => (i === 10 ? late : p));
    assert.equal(history.minutes('BTC', T0, T0 + 5 * HOUR), expectedBtc);
    assert.equal(history.minutes('ETH', T0, T0 + 5 * HOUR), eth);
    assert.equal(history.hours('BTC', T0, T0 + 5 * HOUR), aggregatePoints(expectedBtc, HOUR));
  }));

test('the newest minute readers see moves only once its points can be read', () =>
  // Answers are cached by that time (their ETag): one built between add() and the commit
  // would be kept, without the new minutes, until the next minute.
  withHistory(async (history) => {
    assert.is(history.updatedAtMs('BTC'), null);
    const points = Array.from({ length: 5 }, (_, i) => minutePoint('BTC', i));
    history.add(points);
    // Turn by turn: the rows may be readable before the time moves, never the reverse. (They
    // may also become readable and the time move between the same two turns.)
    let moved = false;
    let turns = 0;
    const hangBoundMs = Date.now() + 10_000; // a commit waits on fsync, slow on a busy disk
    while (!moved && Date.now() < hangBoundMs) {
      moved = history.updatedAtMs('BTC') !== null;
      const rows = history.minutes('BTC', T0, T0 + HOUR).length;
      if (moved) assert.is(rows, points.length, `the time moved with ${rows} points readable`);
      turns++;
      await new Promise((resolve) => setImmediate(resolve));
    }
    assert.ok(moved && turns > 1, `the time moved after the add, not with it (${turns} turns)`);
    assert.is(history.updatedAtMs('BTC'), T0 + 5 * MIN);
    assert.is(history.newestMs(), T0 + 5 * MIN);
    assert.equal(history.minutes('BTC', T0, T0 + HOUR), points, 'every point it names');
    history.add([minutePoint('BTC', 5)]);
    assert.is(history.updatedAtMs('BTC'), T0 + 5 * MIN, 'not before the commit');
    await history.flush();
    assert.is(history.updatedAtMs('BTC'), T0 + 6 * MIN);
  }));

test.run();
