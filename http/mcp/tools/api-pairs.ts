// API-mode tools over the pair universe: get_screener, get_pair and get_deep_view (raw values).
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { gated } from './gate.js';
import { lookupSymbol, type ToolDeps } from './common.js';
import { deepViewOutput, pairOutput, screenerOutput } from './outputs.js';
import { asRow, freshness, rowsAt } from './records.js';
import { fields, table } from './render.js';
import { okResult, problemResult, toolProblems } from './result.js';
import { deepViewInput, pairInput, screenerInput } from './schemas.js';
import { selectPairs } from './select.js';

export const PAIR_COLUMNS = [
  'symbol', 'price', 'change24h', 'volume24h', 'openInterest', 'fundingRate', 'fundingAnnualized',
] as const;

const readOnly = { readOnlyHint: true, openWorldHint: false } as const;

export function registerApiPairTools(server: McpServer, deps: ToolDeps): void {
  server.registerTool('get_screener', {
    title: 'Screener: every listed perpetual',
    description: 'Every listed perpetual pair on the home venue (170+, delisted ones with zero ' +
      'volume): price (mark, USD), change24h (%), volume24h (USD notional), openInterest (USD), ' +
      'fundingRate (raw hourly) and fundingAnnualized (%). Filter by symbols or minimum volume, ' +
      'sort by any field. Raw values. Any plan; one request of the daily quota.',
    inputSchema: screenerInput, outputSchema: screenerOutput, annotations: readOnly,
  }, gated(deps, 'get_screener', 'screener', (args) => {
    const view = asRow(deps.data.screener(), 'screener view');
    const picked = selectPairs(rowsAt(view, 'pairs', 'screener view'), args);
    const head = `${picked.items.length} of ${picked.total} pairs by ${args.sort} ${args.order}`;
    return okResult({ pairs: picked.items, count: picked.items.length, total: picked.total,
      ...freshness(view) }, `${head}\n${table(picked.items, PAIR_COLUMNS)}`);
  }));

  server.registerTool('get_pair', {
    title: 'One pair in detail',
    description: 'One pair: the screener fields plus vpin (0..1, order-flow toxicity), ' +
      'vpinLevel (safe, elevated, high, extreme), signalScore (-100 strong sell .. +100 strong ' +
      'buy), signalDirection and regime. Raw values. Any plan; one request of the daily quota.',
    inputSchema: pairInput, outputSchema: pairOutput, annotations: readOnly,
  }, gated(deps, 'get_pair', 'pair', (args) => {
    const { symbol, found } = lookupSymbol((s) => deps.data.pair(s), args.symbol);
    if (found === undefined) return problemResult(toolProblems.unknownSymbol(args.symbol));
    const row = asRow(found, `pair view of ${symbol}`);
    return okResult(row, fields(row));
  }));

  server.registerTool('get_deep_view', {
    title: 'Order-flow deep view of a tracked pair',
    description: 'Everything the service computes for one of the 100 tracked pairs: price, cvd ' +
      '(cumulative volume delta, USD) and cvdHistory, obi (order-book imbalance), ofi ' +
      '(order-flow imbalance), vpin, kyleLambda (price impact), whales, smartMoney, regime and ' +
      'signalScore. Raw values. Needs the Whale plan (or API); one request of the daily quota.',
    inputSchema: deepViewInput, outputSchema: deepViewOutput, annotations: readOnly,
  }, gated(deps, 'get_deep_view', 'deep-view', (args) => {
    const { symbol, found } = lookupSymbol((s) => deps.data.deepView(s), args.symbol);
    if (found === undefined) return problemResult(toolProblems.unknownSymbol(args.symbol));
    if (found === 'not_tracked') return problemResult(toolProblems.notTracked(symbol));
    const view = asRow(found, `deep view of ${symbol}`);
    const history = view.cvdHistory;
    const trimmed = args.historyLimit !== undefined && Array.isArray(history)
      ? { ...view, cvdHistory: history.slice(Math.max(0, history.length - args.historyLimit)) }
      : view;
    return okResult(trimmed, fields(trimmed));
  }));
}
