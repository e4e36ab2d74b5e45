// API-mode tools over the cross-pair feeds: get_signals, get_smart_money, get_funding_arb.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { VENUES } from '../../../core/messages.js';
import { gated } from './gate.js';
import type { ToolDeps } from './common.js';
import { fundingArbOutput, signalsOutput, smartMoneyOutput } from './outputs.js';
import { asRow, freshness, rowsAt } from './records.js';
import { table } from './render.js';
import { okResult } from './result.js';
import { fundingArbInput, signalsInput, smartMoneyInput } from './schemas.js';
import { selectArb, selectPositions, selectSignals } from './select.js';

const readOnly = { readOnlyHint: true, openWorldHint: false } as const;

export function registerApiFeedTools(server: McpServer, deps: ToolDeps): void {
  server.registerTool('get_signals', {
    title: 'Signal scores of the tracked pairs',
    description: 'Composite signal score per tracked pair: score (-100 strong sell .. +100 ' +
      'strong buy), direction (LONG, SHORT, NEUTRAL), vpin (0..1), cvd (USD) and regime. ' +
      'Filter by direction, minimum |score|, regime or symbols; strongest first by default. ' +
      'Raw values. Needs the Trader plan or above; one request of the daily quota.',
    inputSchema: signalsInput, outputSchema: signalsOutput, annotations: readOnly,
  }, gated(deps, 'get_signals', 'signals', (args) => {
    const picked = selectSignals(asRow(deps.data.signals(), 'signals view'), args);
    const head = `${picked.items.length} of ${picked.total} signals by ${args.sort}`;
    return okResult({ signals: picked.items, count: picked.items.length, total: picked.total },
      `${head}\n${table(picked.items, ['symbol', 'score', 'direction', 'vpin', 'cvd', 'regime'])}`);
  }));

  server.registerTool('get_smart_money', {
    title: 'Open positions of tracked whale wallets',
    description: 'Positions of tracked wallets (funds, smart money, directional whales, market ' +
      'makers, degens, insiders): symbol, side, notional (USD), leverage, entryPrice, ' +
      'unrealizedPnl, with the wallet address, label, category and accountValue. Largest ' +
      'notional first. Raw values. Needs the Pro plan or above; one request of the daily quota.',
    inputSchema: smartMoneyInput, outputSchema: smartMoneyOutput, annotations: readOnly,
  }, gated(deps, 'get_smart_money', 'smart-money', (args) => {
    const view = asRow(deps.data.smartMoney(), 'smart-money view');
    const picked = selectPositions(rowsAt(view, 'positions', 'smart-money view'), args);
    const columns = ['symbol', 'side', 'notional', 'leverage', 'entryPrice', 'unrealizedPnl',
      'category', 'address'];
    return okResult({ ...freshness(view), wallets: view.wallets, positions: picked.items,
      count: picked.items.length, total: picked.total },
    `${picked.items.length} of ${picked.total} positions\n${table(picked.items, columns)}`);
  }));

  server.registerTool('get_funding_arb', {
    title: 'Funding-rate arbitrage across venues',
    description: 'Funding of each pair on the home venue and four other venues (exchange_b .. ' +
      'exchange_e; null where not listed), compared on hourly-equivalent rates: longVenue ' +
      '(lowest, hold the long there), shortVenue (highest), spread and spreadAnnualized (%). ' +
      'Widest spread first. Raw values. Needs the Whale plan (or API); one request of the quota.',
    inputSchema: fundingArbInput, outputSchema: fundingArbOutput, annotations: readOnly,
  }, gated(deps, 'get_funding_arb', 'funding-arb', (args) => {
    const view = asRow(deps.data.fundingArb(), 'funding-arb view');
    const picked = selectArb(rowsAt(view, 'pairs', 'funding-arb view'), args);
    const columns = ['symbol', 'longVenue', 'shortVenue', 'spreadAnnualized', ...VENUES];
    return okResult({ pairs: picked.items, count: picked.items.length, total: picked.total,
      ...freshness(view) },
    `${picked.items.length} of ${picked.total} pairs\n${table(picked.items, columns)}`);
  }));
}
