// OpenAPI parts of the recorded history and the signals' track record: parameters and the
// answer schemas of GET /api/v1/history/{symbol}, /signals/history and /signals/performance.
import { GRADES, REGIMES, TIMEFRAMES } from '../../core/messages.js';
import { PERFORMANCE_GROUPS, PERFORMANCE_WINDOWS } from '../../actors/signals/track-record.js';
import {
  HISTORY_FORMATS, HISTORY_INTERVALS, HISTORY_LIMIT_DEFAULT, HISTORY_LIMIT_MAX, HISTORY_METRICS,
} from '../history-params.js';
import { SIGNALS_LIMIT_DEFAULT, SIGNALS_LIMIT_MAX } from '../handlers/signal-history.js';
import {
  array, bool, described, int, nullable, num, object, oneOf, str, time, type Schema,
} from './schemas-common.js';
import { entrySignal, storedOutcome } from './webhooks.js';

const query = (name: string, description: string, schema: Schema) =>
  ({ name, in: 'query', required: false, description, schema });
const instant = { type: 'string', description: 'ISO 8601 or epoch milliseconds.' };

export const historyParameters: Record<string, Schema> = {
  historyMetrics: query('metrics', 'Comma list; candle gives open, high, low, close (mark) and ' +
    'volume (USD notional).', { type: 'string', default: 'candle',
    pattern: `^(${HISTORY_METRICS.join('|')})(,(${HISTORY_METRICS.join('|')}))*$` }),
  historyInterval: query('interval', 'Point interval; coarser ones aggregate the recorded ' +
    'points.', { type: 'string', enum: [...HISTORY_INTERVALS], default: '1h' }),
  start: query('start', 'First interval (inclusive); default: limit intervals before end. ' +
    'Pro reaches back 30 days (earlier: 403 naming Whale).', instant),
  end: query('end', 'End (exclusive); default: now (market time).', instant),
  historyLimit: query('limit', 'Points per page.', { type: 'integer', minimum: 1,
    maximum: HISTORY_LIMIT_MAX, default: HISTORY_LIMIT_DEFAULT }),
  cursor: query('cursor', 'The nextCursor of the previous page (same symbol, interval and ' +
    'metrics).', { type: 'string' }),
  historyFormat: query('format', 'json, csv (RFC 4180) or arrow (Apache Arrow IPC stream). ' +
    'json and csv write numbers with at most 10 significant digits; arrow keeps the exact ' +
    'float64 values.',
    { type: 'string', enum: [...HISTORY_FORMATS], default: 'json' }),
  signalSymbol: query('symbol', 'Only this pair.', { type: 'string' }),
  timeframe: query('timeframe', 'Only this signal timeframe.', oneOf(TIMEFRAMES)),
  grade: query('grade', 'Only this grade (encode A+ as A%2B).', oneOf(GRADES)),
  signalLimit: query('limit', 'Signals per page.', { type: 'integer', minimum: 1,
    maximum: SIGNALS_LIMIT_MAX, default: SIGNALS_LIMIT_DEFAULT }),
  window: query('window', 'Signals of the last 7, 30 or 90 days (market time), or all kept.',
    { type: 'string', enum: [...PERFORMANCE_WINDOWS], default: '30d' }),
  groupBy: query('groupBy', 'One row per grade, timeframe, logic (a signal counts under each ' +
    'of its logics), regime, symbol, side or grade_timeframe (grade/timeframe, e.g. "A/15m").',
    { type: 'string', enum: [...PERFORMANCE_GROUPS], default: 'grade' }),
  performanceFormat: query('format', 'json, or csv (RFC 4180): one line per group with every ' +
    'field of its row.', { type: 'string', enum: ['json', 'csv'], default: 'json' }),
};

const n = nullable(num);
const range = object({ from: time, to: time });

const historyPoint: Schema = {
  type: 'object', required: ['t'],
  properties: {
    t: described(time, 'Interval open (UTC).'), open: n, high: n, low: n, close: n,
    volume: described(num, 'USD notional traded in the interval.'),
    openInterest: described(n, 'USD, at the interval close.'),
    fundingRate: n, fundingAnnualized: described(n, 'Percent.'), cvd: n, vpin: n, obi: n,
    ofi: n, kyleLambda: n, signalScore: n, regime: nullable(oneOf(REGIMES)),
  },
};

const { chart_url: _chartUrl, ...signalProperties } =
  (entrySignal as { properties: Record<string, Schema> }).properties;

const performanceRow = object({
  group: str, count: int, evaluated: int, t1Hits: int,
  stopHits: described(int, 'Stop first, or stop and t1 in the same bar.'),
  hitRate: described(n, 't1Hits / evaluated.'), avgMovePct: n, avgMaxFavorablePct: n,
  avgMaxAdversePct: n,
  expectancyR: described(n, 'Mean result in units of risk: t1 first +r_t1, stop first -1, ' +
    'neither: the 4-hour move.'),
  hitRateLow: described(n, 'Wilson 95 % interval of hitRate (Wilson 1927).'), hitRateHigh: n,
  expectancyRLow: described(n, '95 % interval of expectancyR; null below 5 evaluated.'),
  expectancyRHigh: n,
  intervalMethod: described(nullable(oneOf(['bootstrap', 't'])), 'Seeded percentile bootstrap ' +
    'of 4-hour blocks of signals (2,000 resamples) below 200 evaluated or 50 blocks, ' +
    'cluster-robust Student t from there.'),
  baselineEvaluated: described(int, 'Evaluated signals with a stored baseline (outcomes ' +
    'stored before baselines existed have none).'),
  baselineRandomR: described(n, 'Mean R of the same entry, stop and targets on a side chosen ' +
    'by a coin seeded with the signal id, on the same bars.'),
  baselineTrendR: described(n, 'Mean R of the same distances on the side of the 4 h before ' +
    'the signal (its 5m bars\' first open to last close), over trendEvaluated signals.'),
  trendEvaluated: described(int, 'Signals with a baseline whose 4 h before had a trend.'),
  edgeR: described(n, 'Mean of (own R - random-direction R), paired per signal.'),
  edgeRLow: described(n, '95 % interval of edgeR (bootstrap below 200, t from 200); null ' +
    'below 5.'), edgeRHigh: n,
  edgePValue: described(n, 'Two-sided p-value of a zero edge, by the interval\'s method.'),
  edgeSignificant: described(nullable(bool), 'The edge is a discovery after Benjamini-' +
    'Hochberg at 5 % over the groups compared; null when not compared.'),
});

const gradeCalibration = object({
  grade: oneOf(GRADES), evaluated: int, hitRate: n, hitRateLow: n, hitRateHigh: n,
  expectancyR: n, expectancyRLow: n, expectancyRHigh: n, baselineRandomR: n,
  enough: described(bool, 'At least evaluatedMin evaluated: part of lettersInOrder.'),
});

const performanceBlocks = {
  informationCoefficient: described(object({ n: int, rho: n, low: n, high: n }),
    'Spearman rank correlation of the score seen from the side (score long, -score short) ' +
    'with the 4-hour move in the side\'s direction, over the evaluated signals of the window; ' +
    '95 % interval over 4-hour blocks of signals (block bootstrap below 200 signals, else a ' +
    'jackknife of Fisher z leaving out runs of blocks); null below 5 signals or 5 blocks.'),
  calibration: object({
    grades: described(array(gradeCalibration), 'A+, A, B, C, D in that order.'),
    lettersInOrder: described(nullable(bool), 'Expectancy non-increasing from A+ to D over ' +
      'the grades with enough outcomes; null when fewer than two have enough.'),
    gradesCompared: int,
    tooFew: described(array(oneOf(GRADES)), 'Grades with fewer than evaluatedMin evaluated.'),
    evaluatedMin: int,
  }),
  multipleComparisons: object({
    method: oneOf(['benjamini-hochberg']), falseDiscoveryRate: num,
    groupsCompared: described(int, 'Groups with an edge interval.'),
    expectedFalsePositives: described(num, '0.05 x groupsCompared: edges at 95 % expected ' +
      'by chance alone.'),
    significantBeforeCorrection: described(int, 'Edges with p < 0.05.'),
    significantAfterCorrection: described(int, 'Edges that are discoveries after ' +
      'Benjamini-Hochberg.'),
  }),
};

export const historySchemas: Record<string, Schema> = {
  History: object({
    symbol: str, interval: oneOf(HISTORY_INTERVALS), metrics: array(oneOf(HISTORY_METRICS)),
    points: described(array(historyPoint), 'Oldest first; an interval with no data is absent.'),
    coverage: object({ from: time, to: time, gaps: described(array(range),
      'Intervals with no data: feed down, service stopped, outside retention.') }),
    nextCursor: nullable(str), updatedAt: nullable(time),
    cadenceMs: described(int, 'Points are recorded once a minute: 60000.'),
  }),
  SignalHistory: object({
    from: time, to: time, count: int,
    signals: array(object({ ...signalProperties, signaled_at: time, outcome: { oneOf: [
      storedOutcome, { type: 'null' }] } },
    // Signals stored before evidence grades have none of the three.
    ['session', 'grade_before_session', 'grade_rules', 'grade_basis', 'grade_evidence'])),
    nextCursor: nullable(str), cadenceMs: int,
  }),
  SignalPerformance: object({
    window: oneOf(PERFORMANCE_WINDOWS), groupBy: oneOf(PERFORMANCE_GROUPS), from: time,
    to: described(time, 'Exclusive end: start=from and end=to on /signals/history list the ' +
      'same signals.'), groups: array(performanceRow), ...performanceBlocks, cadenceMs: int,
  }),
};
