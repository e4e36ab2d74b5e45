// The track record's rows and blocks from tracked signals worked out here: expectancy and
// hit-rate intervals, the random and trend baselines and the paired edge, the information
// coefficient, calibration and the multiple-comparisons note; and the same answer recomputed.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Grade } from '../../core/messages.js';
import { randomKeepsSide, type SignalBaseline } from '../../actors/signals/baseline.js';
import { performanceReport } from '../../actors/signals/performance-report.js';
import type { TrackedSignal } from '../../actors/signals/track-record.js';
import type { EntrySignal, FirstLevelHit, SignalOutcome } from '../../actors/signals/types.js';
import { benjaminiHochberg } from '../../kernels/benjamini-hochberg.js';
import { wilsonInterval } from '../../kernels/wilson.js';
import { seededRandom } from '../helpers/seeded-random.js';

const T0 = Date.parse('2026-11-01T00:00:00.000Z');
const BAR = 300_000;

interface Case {
  grade: Grade;
  side: 'long' | 'short';
  score: number;
  hit: FirstLevelHit;
  /** The side-relative close after 4 h in R (used when no level was hit). */
  moveR: number;
  mirror: FirstLevelHit;
  trend: 'long' | 'short' | null;
  baseline?: boolean;
}

function tracked(i: number, c: Case): TrackedSignal {
  const barMs = T0 + i * BAR;
  const sign = c.side === 'long' ? 1 : -1;
  const signal: EntrySignal = {
    signal_id: `BTC-5m-${barMs}-${c.side}`, symbol: 'BTC', timeframe: '5m', side: c.side,
    grade: c.grade, score: c.score, bar_time: new Date(barMs).toISOString(), regime: 'ranging',
    confirmed: true, flow_source: 'bar_delta',
    logics: { liquidity_grab: true, flow_rejection: false, absorption: false,
      cvd_divergence: false, structure_shift: false, level_confluence: false },
    plan: { entry: 100, stop: 100 - sign * 2, t1: 100 + sign * 3, t2: 100 + sign * 6, r_t1: 1.5,
      r_t2: 3 },
    price_at_signal: 100,
  };
  const priceAfter = 100 + sign * 2 * c.moveR;
  const outcome = { first_level_hit: c.hit, price_after: priceAfter, move_pct: 2 * c.moveR,
    max_favorable_pct: 1, max_adverse_pct: -1,
    evaluated_at: new Date(barMs + BAR + 4 * 3_600_000).toISOString() } as SignalOutcome;
  const baseline: SignalBaseline | null = c.baseline === false ? null
    : { mirror_first_level_hit: c.mirror, trend_side: c.trend };
  return { signal, signalMs: barMs + BAR, outcome, baseline };
}

/** R of a side's result: t1 +1.5, stop -1, else the move (negated for the mirror). */
const rOf = (hit: FirstLevelHit, moveR: number) =>
  (hit === 't1' ? 1.5 : hit === 'stop' || hit === 'both_same_bar' ? -1 : moveR);

function cases(): Case[] {
  const draw = seededRandom(3);
  const out: Case[] = [];
  const grades: Grade[] = ['A', 'B', 'C', 'D'];
  for (let i = 0; i < 260; i++) {
    const grade = grades[i % 4];
    // Better letters pay more: their side's t1 comes first more often than the mirror's.
    const good = (grade === 'A' ? 0.9 : grade === 'B' ? 0.6 : grade === 'C' ? 0.35 : 0.1) > draw();
    const hit: FirstLevelHit = good ? 't1' : draw() < 0.8 ? 'stop' : 'none';
    const mirror: FirstLevelHit = hit === 't1' ? 'stop' : hit === 'stop' ? 't1' : 'none';
    out.push({ grade, side: i % 3 === 0 ? 'short' : 'long', score: Math.round(draw() * 100),
      hit, moveR: hit === 'none' ? draw() - 0.5 : 0, mirror,
      trend: i % 5 === 0 ? null : i % 2 === 0 ? 'long' : 'short', baseline: i % 13 !== 0 });
  }
  return out;
}

test('rows: intervals, baselines and the paired edge match sums worked out here', () => {
  const input = cases();
  const all = input.map((c, i) => tracked(i, c));
  const report = performanceReport(all, 0, Infinity, 'grade');
  for (const row of report.rows) {
    const members = all.map((t, i) => [t, input[i]] as const)
      .filter(([t]) => t.signal.grade === row.group);
    const own = members.map(([, c]) => rOf(c.hit, c.moveR));
    assert.is(row.evaluated, members.length);
    const hit = wilsonInterval(members.filter(([, c]) => c.hit === 't1').length, row.evaluated)!;
    assert.equal([row.hitRateLow, row.hitRateHigh], [hit.low, hit.high]);
    const withBase = members.filter(([, c]) => c.baseline !== false);
    const random = withBase.map(([t, c]) => (randomKeepsSide(t.signal.signal_id)
      ? rOf(c.hit, c.moveR) : rOf(c.mirror, -c.moveR)));
    const edges = withBase.map(([, c], k) => rOf(c.hit, c.moveR) - random[k]);
    const trend = withBase.filter(([, c]) => c.trend !== null).map(([t, c]) =>
      (c.trend === t.signal.side ? rOf(c.hit, c.moveR) : rOf(c.mirror, -c.moveR)));
    const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
    assert.ok(Math.abs(row.expectancyR! - mean(own)) < 1e-12, 'expectancy');
    assert.is(row.baselineEvaluated, withBase.length);
    assert.ok(Math.abs(row.baselineRandomR! - mean(random)) < 1e-12, 'random baseline');
    assert.is(row.trendEvaluated, trend.length);
    assert.ok(Math.abs(row.baselineTrendR! - mean(trend)) < 1e-12, 'trend baseline');
    assert.ok(Math.abs(row.edgeR! - mean(edges)) < 1e-12, 'edge');
    assert.ok(row.edgeRLow! <= row.edgeR! && row.edgeR! <= row.edgeRHigh!, 'edge in interval');
    assert.ok(row.expectancyRLow! <= row.expectancyR! &&
      row.expectancyR! <= row.expectancyRHigh!, 'expectancy in interval');
    assert.is(row.intervalMethod, 'bootstrap', 'n below 200');
  }
  // The coin is seeded per signal: about half keep their side, the same on every call.
  const kept = all.filter((t) => randomKeepsSide(t.signal.signal_id)).length;
  assert.ok(kept > 90 && kept < 170, `kept ${kept} of 260`);
  // Multiple comparisons: BH over the rows' p-values, the counts agree.
  const mc = report.multipleComparisons;
  const ps = report.rows.map((r) => r.edgePValue!);
  assert.is(mc.groupsCompared, 4);
  assert.ok(Math.abs(mc.expectedFalsePositives - 0.2) < 1e-12);
  assert.is(mc.significantBeforeCorrection, ps.filter((p) => p < 0.05).length);
  assert.equal(report.rows.map((r) => r.edgeSignificant), benjaminiHochberg(ps, 0.05));
  assert.is(mc.significantAfterCorrection, benjaminiHochberg(ps, 0.05).filter(Boolean).length);
  // A pays against its mirror: its edge is clearly positive.
  const a = report.rows.find((r) => r.group === 'A')!;
  assert.ok(a.edgeRLow! > 0 && a.edgeSignificant === true, JSON.stringify(a));
  // Recomputed from the same outcomes: the same answer, bootstrap included.
  assert.equal(performanceReport(all, 0, Infinity, 'grade'), report);
});

test('calibration: realised figures per grade, letters in order, too few named', () => {
  const input = cases();
  const all = input.map((c, i) => tracked(i, c));
  const { calibration } = performanceReport(all, 0, Infinity, 'side');
  assert.equal(calibration.grades.map((g) => g.grade), ['A+', 'A', 'B', 'C', 'D']);
  assert.equal(calibration.tooFew, ['A+']);
  assert.is(calibration.grades[0].expectancyR, null);
  assert.is(calibration.gradesCompared, 4);
  const e = calibration.grades.slice(1).map((g) => g.expectancyR!);
  assert.ok(e.every((x, k) => k === 0 || x <= e[k - 1]), `made in order: ${e.join(', ')}`);
  assert.is(calibration.lettersInOrder, true);
  // D made the best: out of order.
  const flipped = performanceReport(all.map((t) => ({ ...t, signal: { ...t.signal,
    grade: (t.signal.grade === 'A' ? 'D' : t.signal.grade === 'D' ? 'A' : t.signal.grade) as
      Grade } })), 0, Infinity, 'grade');
  assert.is(flipped.calibration.lettersInOrder, false);
  // Fewer than two grades with enough outcomes: no order to read.
  const few = performanceReport(all.slice(0, 40), 0, Infinity, 'grade');
  assert.is(few.calibration.lettersInOrder, null);
});

test('information coefficient: Spearman of the side-relative score with the 4 h move', () => {
  // Scores seen from the side rise with the move for 6 signals, then one against: rho by hand.
  const base: Omit<Case, 'score' | 'moveR' | 'side'> = { grade: 'B', hit: 'none',
    mirror: 'none', trend: null };
  const rows: [number, 'long' | 'short', number][] = [[10, 'long', -0.3], [-20, 'short', -0.1],
    [30, 'long', 0.05], [-40, 'short', 0.2], [50, 'long', 0.4], [60, 'long', 0.1]];
  const all = rows.map(([score, side, moveR], i) => tracked(i, { ...base, score, side, moveR }));
  const ic = performanceReport(all, 0, Infinity, 'grade').informationCoefficient;
  // From the side: 10, 20, 30, 40, 50, 60 against moves -0.3, -0.1, 0.05, 0.2, 0.4, 0.1:
  // ranks 1..6 against 1, 2, 3, 5, 6, 4: d^2 = 0+0+0+1+1+4 = 6, rho = 1 - 6*6/(6*35).
  assert.is(ic.n, 6);
  assert.ok(Math.abs(ic.rho! - (1 - 36 / 210)) < 1e-12, String(ic.rho));
  // All six close within one 4 h block: one block resampled says nothing, so no interval.
  assert.is(ic.low, null);
  assert.is(ic.high, null);
  // The window bounds it: none inside, no coefficient.
  assert.equal(performanceReport(all, 0, T0, 'grade').informationCoefficient,
    { n: 0, rho: null, low: null, high: null });
});

test.run();
