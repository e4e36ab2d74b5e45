// OpenAPI parts of the footprint and the volume profile: their query parameters and answer
// schemas (docs/footprint.md, "API").
import { FOOTPRINT_TIMEFRAMES } from '../../core/footprint.js';
import { FOOTPRINT_BARS_DEFAULT, FOOTPRINT_BARS_MAX } from '../handlers/footprint.js';
import {
  array, described, freshness, int, nullable, num, object, oneOf, staleness, str, time,
  type Schema,
} from './schemas-common.js';

const query = (name: string, description: string, schema: Schema) =>
  ({ name, in: 'query', required: false, description, schema });
const instant = { type: 'string', description: 'ISO 8601 or epoch milliseconds.' };
const basis = described(oneOf(['trades', 'candles', 'mixed']), 'trades: a full footprint; ' +
  'candles: built from candles (warm-up, backfill), no levels; mixed: the trades\' part only.');
const price = described(num, 'The level\'s low edge: [price, price + levelSize).');

export const footprintParameters: Record<string, Schema> = {
  footprintTimeframe: query('timeframe', 'Bar timeframe.',
    { type: 'string', enum: [...FOOTPRINT_TIMEFRAMES], default: '5m' }),
  footprintBars: query('bars', 'Bars returned, the newest; the open bar is the last.',
    { type: 'integer', minimum: 1, maximum: FOOTPRINT_BARS_MAX,
      default: FOOTPRINT_BARS_DEFAULT }),
  answerFormat: query('format', 'json, or csv (RFC 4180, one row per level).',
    { type: 'string', enum: ['json', 'csv'], default: 'json' }),
  profileSession: query('session', 'The UTC day of market time (today) or the one before ' +
    '(yesterday); not with start or end.', { type: 'string', enum: ['today', 'yesterday'],
    default: 'today' }),
  profileStart: query('start', 'Range start (inclusive), with end: at most 31 days.', instant),
  profileEnd: query('end', 'Range end (exclusive); default: now (market time).', instant),
};

const FootprintBar = object({
  openTime: time, closeTime: time,
  closed: described({ type: 'boolean' }, 'False for the open bar, still filling.'), basis,
  high: nullable(num), low: nullable(num),
  volume: described(num, 'Base units, buy + sell.'), delta: described(num, 'buy - sell.'),
  pocPrice: described(nullable(num), 'The low of the level with the most volume.'),
  clippedVolume: described(num, 'Volume of trades beyond the bar\'s level window, booked on ' +
    'its edge levels.'),
  levels: described(array(object({ price, buy: num, sell: num, delta: num })),
    'Ascending price; aggressor volume in base units.'),
  stackedImbalances: described(array(object({ side: oneOf(['buy', 'sell']), fromPrice: price,
    toPrice: price, levels: int })), 'Runs of at least 3 levels whose diagonal ratio is at ' +
    'least 3 (docs/footprint.md).'),
});

export const footprintSchemas: Record<string, Schema> = {
  FootprintBar,
  Footprint: object({
    symbol: str, timeframe: oneOf(FOOTPRINT_TIMEFRAMES),
    tickSize: nullable(num), levelSize: described(nullable(num),
      'Price span of a level of the newest bar (fixed for a UTC day).'),
    bars: array({ $ref: '#/components/schemas/FootprintBar' }), ...freshness, ...staleness,
  }),
  VolumeProfile: object({
    symbol: str, session: oneOf(['today', 'yesterday', 'range']), start: time, end: time,
    levelSize: nullable(num), pocPrice: nullable(num),
    valueAreaHigh: described(nullable(num), 'Top edge of the value area (70 % of volume).'),
    valueAreaLow: described(nullable(num), 'Bottom edge of the value area.'),
    volume: num, levels: array(object({ price, buy: num, sell: num, volume: num })),
    nakedPocs: described(array(object({ price, sessionStart: time })), 'Earlier days\' points ' +
      'of control no later bar has traded through.'),
    basis, ...freshness, ...staleness,
  }),
};
