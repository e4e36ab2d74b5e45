// The five free-mode tools of /api/mcp/public: no key, screener data only, rounded for display.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { PAIR_COLUMNS } from './api-pairs.js';
import { lookupSymbol, safely, type ToolDeps } from './common.js';
import { fundingExtremes, marketSummary, topMovers } from './market.js';
import {
  fundingExtremesOutput, marketSummaryOutput, pairOutput, screenerOutput, topMoversOutput,
} from './outputs.js';
import { asRow, freshness, rowsAt, type Row } from './records.js';
import { fields, table } from './render.js';
import { okResult, problemResult, toolProblems } from './result.js';
import { roundForDisplay } from './round.js';
import {
  fundingExtremesInput, noInput, pairInput, screenerInput, topMoversInput,
} from './schemas.js';
import { selectPairs } from './select.js';

export const PUBLIC_TOOL_NAMES = [
  'get_screener', 'get_pair', 'get_top_movers', 'get_funding_extremes', 'get_market_summary',
] as const;

const readOnly = { readOnlyHint: true, openWorldHint: false } as const;
const note = ' Values rounded for display; an API key on /api/mcp gives raw values.';

const rounded = (row: Row): Row => roundForDisplay(row) as Row;

export function registerPublicTools(server: McpServer, deps: ToolDeps): void {
  const pairs = () => {
    const view = asRow(deps.data.screener(), 'screener view');
    return { view, rows: rowsAt(view, 'pairs', 'screener view') };
  };
  const run = runner(deps);

  server.registerTool('get_screener', {
    title: 'Screener: every listed perpetual',
    description: 'Every listed perpetual pair on the home venue (170+, delisted ones with zero ' +
      'volume): price (mark, USD), change24h (%), volume24h (USD), openInterest (USD), ' +
      'fundingRate (raw hourly) and fundingAnnualized (%). Filter by symbols or minimum volume, ' +
      'sort by any field.' + note,
    inputSchema: screenerInput, outputSchema: screenerOutput, annotations: readOnly,
  }, (args) => run('get_screener', () => {
    const { view, rows } = pairs();
    const picked = selectPairs(rows, args);
    return { pairs: picked.items, count: picked.items.length, total: picked.total,
      ...freshness(view) };
  }, (out) => `${out.count} of ${out.total} pairs by ${args.sort} ${args.order}\n` +
    table(out.pairs as Row[], PAIR_COLUMNS)));

  server.registerTool('get_pair', {
    title: 'One pair in detail',
    description: 'One pair: price, change24h, volume24h, openInterest, funding, and for the 100 ' +
      'tracked pairs vpin (0..1), vpinLevel, signalScore (-100..+100), signalDirection and ' +
      'regime.' + note,
    inputSchema: pairInput, outputSchema: pairOutput, annotations: readOnly,
  }, (args) => safely(deps.logger, 'get_pair', () => {
    const { symbol, found } = lookupSymbol((s) => deps.data.pair(s), args.symbol);
    if (found === undefined) return problemResult(toolProblems.unknownSymbol(args.symbol));
    const row = rounded(asRow(found, `pair view of ${symbol}`));
    return okResult(row, fields(row));
  }));

  registerDigests(server, run, pairs);
}

type Runner = (tool: string, body: () => Row, render: (r: Row) => string) => CallToolResult;

/** Builds a tool's answer, rounds it for display, then renders the rounded values as text. */
function runner(deps: ToolDeps): Runner {
  return (tool, body, render) => safely(deps.logger, tool, () => {
    const out = rounded(body());
    return okResult(out, render(out));
  });
}

function registerDigests(server: McpServer, run: Runner, pairs: () => { rows: Row[] }): void {
  const moverColumns = ['symbol', 'price', 'change24h', 'volume24h'];
  server.registerTool('get_top_movers', {
    title: 'Top movers over 24 hours',
    description: 'The pairs that rose (gainers) and fell (losers) the most over 24 hours, by ' +
      'change24h (%), among pairs with at least minVolume24h USD of volume.' + note,
    inputSchema: topMoversInput, outputSchema: topMoversOutput, annotations: readOnly,
  }, (args) => run('get_top_movers', () => {
    const movers = topMovers(pairs().rows, args.minVolume24h, args.limit);
    return {
      gainers: args.direction === 'losers' ? [] : movers.gainers,
      losers: args.direction === 'gainers' ? [] : movers.losers,
      minVolume24h: args.minVolume24h,
    };
  }, (out) => `Gainers\n${table(out.gainers as Row[], moverColumns)}\n\n` +
    `Losers\n${table(out.losers as Row[], moverColumns)}`));

  const fundingColumns = ['symbol', 'fundingAnnualized', 'fundingRate', 'price', 'volume24h'];
  server.registerTool('get_funding_extremes', {
    title: 'Funding-rate extremes',
    description: 'The pairs with the most positive funding (longs pay shorts) and the most ' +
      'negative (shorts pay longs) on the home venue, by fundingAnnualized (%), among pairs ' +
      'with at least minVolume24h USD of volume.' + note,
    inputSchema: fundingExtremesInput, outputSchema: fundingExtremesOutput, annotations: readOnly,
  }, (args) => run('get_funding_extremes', () => {
    const extremes = fundingExtremes(pairs().rows, args.minVolume24h, args.limit);
    return {
      highest: args.side === 'negative' ? [] : extremes.highest,
      lowest: args.side === 'positive' ? [] : extremes.lowest,
      minVolume24h: args.minVolume24h,
    };
  }, (out) => `Highest\n${table(out.highest as Row[], fundingColumns)}\n\n` +
    `Lowest\n${table(out.lowest as Row[], fundingColumns)}`));

  server.registerTool('get_market_summary', {
    title: 'Market summary',
    description: 'One overview of the whole venue: listed and active pairs, total 24h volume and ' +
      'open interest (USD), advancers and decliners, median 24h change (%), open-interest-' +
      'weighted annualized funding (%), and the five pairs with the most volume.' + note,
    inputSchema: noInput, outputSchema: marketSummaryOutput, annotations: readOnly,
  }, () => run('get_market_summary', () => marketSummary(pairs().rows), (out) => {
    const { topByVolume, ...totals } = out;
    return `${fields(totals)}\n\nTop by volume\n${table(topByVolume as Row[], moverColumns)}`;
  }));
}
