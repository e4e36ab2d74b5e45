// API-mode tools over the footprint: get_footprint and get_volume_profile answer what
// GET /api/v1/footprint/{symbol} and /api/v1/volume-profile/{symbol} answer (JSON, by the same
// handlers), gated like them: Whale or API, in their burst scope of 10 a minute.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { FOOTPRINT_TIMEFRAMES } from '../../../core/footprint.js';
import { FOOTPRINT_BARS_DEFAULT, FOOTPRINT_BARS_MAX } from '../../handlers/footprint.js';
import { problems } from '../../problems.js';
import { queryOf, type ToolDeps } from './common.js';
import { gated } from './gate.js';
import { asRow, rowsAt } from './records.js';
import { fields, table } from './render.js';
import { okResult, problemResult } from './result.js';
import { symbol } from './schemas.js';

const readOnly = { readOnlyHint: true, openWorldHint: false } as const;

export const footprintInput = z.strictObject({
  symbol,
  timeframe: z.enum(FOOTPRINT_TIMEFRAMES).default('5m').describe('Bar timeframe: 5m ' +
    '(default), 15m or 1h.'),
  bars: z.number().int().min(1).max(FOOTPRINT_BARS_MAX).default(FOOTPRINT_BARS_DEFAULT)
    .describe(`The newest bars, 1 to ${FOOTPRINT_BARS_MAX} (default ${FOOTPRINT_BARS_DEFAULT}); ` +
      'the open bar is the last.'),
});

export const volumeProfileInput = z.strictObject({
  symbol,
  session: z.enum(['today', 'yesterday']).optional().describe('The UTC day of market time ' +
    '(today, the default) or the one before; not with start or end.'),
  start: z.string().optional().describe('Range start, ISO 8601 or epoch ms (inclusive); with ' +
    'end at most 31 days.'),
  end: z.string().optional().describe('Range end, ISO 8601 or epoch ms (exclusive); default ' +
    'now (market time).'),
});

const num = z.number();
const time = z.string().describe('ISO 8601 UTC.');
const basis = z.enum(['trades', 'candles', 'mixed']).describe('trades: a full footprint; ' +
  'candles: built from candles (warm-up, backfill), no levels; mixed: the trades\' part only.');
const price = num.describe('The level\'s low edge: [price, price + levelSize).');
const feed = {
  updatedAt: time, cadenceMs: num, stale: z.boolean(),
  asOf: time.nullable().describe('Market time of the newest event folded in.'),
};

const footprintBar = z.looseObject({
  openTime: time, closeTime: time,
  closed: z.boolean().describe('False for the open bar, still filling.'), basis,
  high: num.nullable(), low: num.nullable(), volume: num.describe('Base units, buy + sell.'),
  delta: num.describe('buy - sell.'),
  pocPrice: num.nullable().describe('The low of the level with the most volume.'),
  clippedVolume: num.describe('Volume beyond the bar\'s level window, on its edge levels.'),
  levels: z.array(z.looseObject({ price, buy: num, sell: num, delta: num }))
    .describe('Ascending price; aggressor volume in base units.'),
  stackedImbalances: z.array(z.looseObject({ side: z.enum(['buy', 'sell']), fromPrice: price,
    toPrice: price, levels: z.number().int() })).describe('Runs of at least 3 levels whose ' +
    'diagonal ratio is at least 3.'),
});

export const footprintOutput = z.looseObject({
  symbol: z.string(), timeframe: z.enum(FOOTPRINT_TIMEFRAMES), tickSize: num.nullable(),
  levelSize: num.nullable().describe('Price span of a level of the newest bar (fixed for a ' +
    'UTC day).'),
  bars: z.array(footprintBar).describe('Oldest first; the open bar last.'), ...feed,
});

export const volumeProfileOutput = z.looseObject({
  symbol: z.string(), session: z.enum(['today', 'yesterday', 'range']), start: time, end: time,
  levelSize: num.nullable(), pocPrice: num.nullable(),
  valueAreaHigh: num.nullable().describe('Top edge of the value area (70 % of volume).'),
  valueAreaLow: num.nullable().describe('Bottom edge of the value area.'), volume: num,
  levels: z.array(z.looseObject({ price, buy: num, sell: num, volume: num })),
  nakedPocs: z.array(z.looseObject({ price, sessionStart: time })).describe('Earlier days\' ' +
    'points of control no later bar has traded through.'),
  basis, ...feed,
});

export function registerApiFootprintTools(server: McpServer, deps: ToolDeps): void {
  server.registerTool('get_footprint', {
    title: 'Footprint bars of a tracked pair',
    description: 'The newest footprint bars of one of the 100 tracked pairs, oldest first with ' +
      'the open bar last: per price level the volume bought and sold by aggressive traders ' +
      '(base units) and its delta, per bar its volume, delta, point of control (pocPrice) and ' +
      'stacked imbalances. Bars built from candles say basis "candles" and have no levels. ' +
      'Raw values. Needs the Whale plan (or API), 10 calls a minute with the REST footprint ' +
      'and volume profile; one request of the daily quota.',
    inputSchema: footprintInput, outputSchema: footprintOutput, annotations: readOnly,
  }, gated(deps, 'get_footprint', 'footprint', (args) => {
    if (deps.data.footprint === undefined) {
      return problemResult(problems.notReady('the footprint'));
    }
    const answer = deps.data.footprint(args.symbol,
      queryOf({ timeframe: args.timeframe, bars: args.bars }));
    if (!answer.ok) return problemResult(answer.problem);
    const view = asRow(answer.value, 'footprint');
    const bars = rowsAt(view, 'bars', 'footprint');
    return okResult(view, `${bars.length} ${args.timeframe} footprint bars of ` +
      `${String(view.symbol)}, level size ${String(view.levelSize)}\n` +
      table(bars, ['openTime', 'closed', 'basis', 'low', 'high', 'volume', 'delta', 'pocPrice']));
  }, 'footprint'));

  server.registerTool('get_volume_profile', {
    title: 'Volume profile of a tracked pair',
    description: 'Volume at price of one of the 100 tracked pairs over the UTC day (today, ' +
      'the default, or yesterday) or a start..end range of up to 31 days: per level the ' +
      'volume bought and sold (base units), the point of control (pocPrice), the value area ' +
      '(valueAreaLow..valueAreaHigh, 70 % of the volume) and earlier days\' untested points of ' +
      'control (nakedPocs). Raw values. Needs the Whale plan (or API), 10 calls a minute with ' +
      'the REST footprint and volume profile; one request of the daily quota.',
    inputSchema: volumeProfileInput, outputSchema: volumeProfileOutput, annotations: readOnly,
  }, gated(deps, 'get_volume_profile', 'volume-profile', (args) => {
    if (deps.data.volumeProfile === undefined) {
      return problemResult(problems.notReady('the volume profile'));
    }
    const answer = deps.data.volumeProfile(args.symbol,
      queryOf({ session: args.session, start: args.start, end: args.end }));
    if (!answer.ok) return problemResult(answer.problem);
    const view = asRow(answer.value, 'volume profile');
    return okResult(view, fields(view));
  }, 'footprint'));
}
