// API-mode tools over the recorded history and the signals' track record: get_history and
// get_signal_performance answer what GET /api/v1/history/{symbol} and /signals/performance
// answer (JSON), gated by the same plan (Pro and above, Pro reaching back 30 days).
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { HISTORY_INTERVALS, HISTORY_METRICS } from '../../history-params.js';
import { PERFORMANCE_GROUPS, PERFORMANCE_WINDOWS } from '../../../actors/signals/track-record.js';
import { problems } from '../../problems.js';
import { gated } from './gate.js';
import { queryOf, type ToolDeps } from './common.js';
import { asRow, rowsAt } from './records.js';
import { table } from './render.js';
import { okResult, problemResult } from './result.js';
import { SYMBOL_PATTERN } from './schemas.js';

const readOnly = { readOnlyHint: true, openWorldHint: false } as const;

export const historyInput = z.strictObject({
  symbol: z.string().trim().regex(SYMBOL_PATTERN, 'expected a pair symbol such as BTC')
    .describe('Pair symbol, e.g. "BTC" or "xyz:TSLA".'),
  metrics: z.array(z.enum(HISTORY_METRICS)).min(1).default(['candle']).describe('Fields per ' +
    'point: candle (mark open/high/low/close and USD volume), openInterest (USD), ' +
    'fundingRate, fundingAnnualized (%), cvd, vpin, obi, ofi, kyleLambda, signalScore, regime.'),
  interval: z.enum(HISTORY_INTERVALS).default('1h').describe('Point interval (default 1h).'),
  start: z.string().optional().describe('ISO 8601 or epoch ms; default limit intervals back.'),
  end: z.string().optional().describe('ISO 8601 or epoch ms (exclusive); default now.'),
  limit: z.number().int().min(1).max(5_000).default(100).describe('Points, 1 to 5000 ' +
    '(default 100).'),
  cursor: z.string().optional().describe('nextCursor of the previous answer, for the next page.'),
});

export const historyOutput = z.looseObject({
  symbol: z.string(), interval: z.string(),
  points: z.array(z.looseObject({ t: z.string() })).describe('Oldest first.'),
  coverage: z.looseObject({}).describe('from, to and gaps (intervals with no data).'),
  nextCursor: z.string().nullable(),
});

export const performanceInput = z.strictObject({
  window: z.enum(PERFORMANCE_WINDOWS).default('30d').describe('Signals of the last 7, 30 or ' +
    '90 days, or all kept (default 30d).'),
  groupBy: z.enum(PERFORMANCE_GROUPS).default('grade').describe('One row per grade ' +
    '(default), timeframe, logic, regime, symbol, side or grade_timeframe.'),
});

export const performanceOutput = z.looseObject({
  groups: z.array(z.looseObject({ group: z.string() }).describe('count, evaluated, t1Hits, ' +
    'stopHits, hitRate (hitRateLow/High: Wilson 95 %), avgMovePct, avgMaxFavorablePct, ' +
    'avgMaxAdversePct, expectancyR (expectancyRLow/High: 95 %), baselineRandomR, ' +
    'baselineTrendR, edgeR (edgeRLow/High, edgePValue, edgeSignificant after ' +
    'Benjamini-Hochberg).')),
  informationCoefficient: z.looseObject({}).describe('Spearman of the side-relative score ' +
    'with the 4-hour move: n, rho, low, high.'),
  calibration: z.looseObject({}).describe('Per grade realised hit rate and expectancy with ' +
    'intervals; lettersInOrder; tooFew.'),
  multipleComparisons: z.looseObject({}).describe('groupsCompared, expectedFalsePositives, ' +
    'significantBeforeCorrection, significantAfterCorrection.'),
});

export function registerApiHistoryTools(server: McpServer, deps: ToolDeps): void {
  server.registerTool('get_history', {
    title: 'Recorded history of a pair',
    description: 'Points of one pair over time, oldest first: mark candle and USD volume, open ' +
      'interest, funding, CVD, VPIN, OBI, OFI, Kyle\'s lambda, signal score, regime. Intervals ' +
      'with no data are listed in coverage.gaps. Page with nextCursor. Raw values. Needs the ' +
      'Pro plan (30 days back) or Whale/API (the whole retention); one request of the quota.',
    inputSchema: historyInput, outputSchema: historyOutput, annotations: readOnly,
  }, gated(deps, 'get_history', 'history', (args, identity) => {
    if (deps.data.history === undefined) return problemResult(problems.notReady('the history'));
    const answer = deps.data.history(args.symbol, queryOf({ metrics: args.metrics.join(','),
      interval: args.interval, start: args.start, end: args.end, limit: args.limit,
      cursor: args.cursor }), identity);
    if (!answer.ok) return problemResult(answer.problem);
    const view = asRow(answer.value, 'history');
    const points = rowsAt(view, 'points', 'history');
    const columns = ['t', ...args.metrics.flatMap((m) =>
      (m === 'candle' ? ['open', 'high', 'low', 'close', 'volume'] : [m]))];
    return okResult(view, `${points.length} points of ${args.symbol} at ${args.interval}` +
      `${view.nextCursor ? ' (more: pass nextCursor)' : ''}\n${table(points, columns)}`);
  }));

  server.registerTool('get_signal_performance', {
    title: 'How the entry signals have done',
    description: 'Track record of the graded entry signals over a window, grouped by grade, ' +
      'timeframe, logic, regime or symbol: count, evaluated (4-hour outcome known), t1Hits, ' +
      'stopHits, hitRate (t1 before stop over evaluated), average move, favorable and adverse ' +
      'excursions (%), expectancyR (mean result in units of risk), with 95 % intervals, ' +
      'random- and trend-direction baselines on the same bars, the edge over the random one ' +
      'and whether it survives Benjamini-Hochberg; also the information coefficient, the ' +
      'grades\' calibration (lettersInOrder) and how many groups were compared. Needs the Pro ' +
      'plan or above; one request of the daily quota.',
    inputSchema: performanceInput, outputSchema: performanceOutput, annotations: readOnly,
  }, gated(deps, 'get_signal_performance', 'history', (args) => {
    if (deps.data.signalPerformance === undefined) {
      return problemResult(problems.notReady('the signal performance'));
    }
    const answer = deps.data.signalPerformance(queryOf(args));
    if (!answer.ok) return problemResult(answer.problem);
    const view = asRow(answer.value, 'signal performance');
    const groups = rowsAt(view, 'groups', 'signal performance');
    return okResult(view, `${groups.length} groups by ${args.groupBy} over ${args.window}\n` +
      table(groups, ['group', 'count', 'evaluated', 'hitRate', 'avgMovePct', 'expectancyR',
        'expectancyRLow', 'expectancyRHigh', 'baselineRandomR', 'edgeR', 'edgeSignificant']) +
      `\n${performanceNote(view)}`);
  }));
}

/** The answer's blocks beyond the rows, in a line each. */
function performanceNote(view: Record<string, unknown>): string {
  const ic = view.informationCoefficient as Record<string, unknown> | undefined;
  const cal = view.calibration as Record<string, unknown> | undefined;
  const mc = view.multipleComparisons as Record<string, unknown> | undefined;
  return [
    `information coefficient: rho ${String(ic?.rho ?? null)} [${String(ic?.low ?? null)}, ` +
      `${String(ic?.high ?? null)}] over ${String(ic?.n ?? 0)} signals`,
    `letters in order: ${String(cal?.lettersInOrder ?? null)} (too few outcomes: ` +
      `${((cal?.tooFew as string[] | undefined) ?? []).join(', ') || 'none'})`,
    `groups compared: ${String(mc?.groupsCompared ?? 0)}, expected false positives at 95 %: ` +
      `${String(mc?.expectedFalsePositives ?? 0)}, significant before/after ` +
      `Benjamini-Hochberg: ${String(mc?.significantBeforeCorrection ?? 0)}/` +
      `${String(mc?.significantAfterCorrection ?? 0)}`,
  ].join('\n');
}
