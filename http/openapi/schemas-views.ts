// The response schemas of the feed views: the fields docs/api.md lists plus docs/decisions.md's.
// The runtime builds its views to these shapes; this file is the one place they are written.
import {
  array, bool, enums, freshness, fundingAnnualized, int, nullable, num, object, oneOf, ref,
  score, staleness, str, time, vpin, type Schema, described,
} from './schemas-common.js';
import { VENUES, WALLET_CATEGORIES } from '../../core/messages.js';

const basis = described(oneOf(['candles', 'mixed', 'trades']),
  'What the windows behind the numbers were filled from: candles (warm-up or venue backfill, ' +
  'no trade since), mixed (candle-based windows still filling with trades) or trades.');

const market = {
  symbol: described(str, 'Pair symbol: a ticker, or dex:TICKER for builder markets.'),
  price: described(num, 'Mark price.'),
  change24h: described(num, 'Percent: (markPx - prevDayPx) / prevDayPx * 100.'),
  volume24h: described(num, '24h notional volume, USD.'),
  openInterest: described(num, 'Open interest in USD (base units x mark price).'),
  fundingRate: described(num, 'Raw hourly funding rate.'),
  fundingAnnualized,
};

const Pair = object({
  ...market,
  dex: described(str, "Builder dex of the market, '' for the main dex."),
  delisted: bool,
  tracked: described(bool, 'One of the 100 pairs with orderflow analytics.'),
  stale: staleness.stale!,
});

const PairDetail = object({
  ...market,
  vpin: nullable(vpin),
  vpinLevel: nullable(enums.vpinLevel),
  signalScore: nullable(score),
  signalDirection: nullable(enums.direction),
  regime: nullable(enums.regime),
  basis: nullable(basis),
  tracked: bool,
  ...staleness,
  ...freshness,
});

// vpin, cvd and regime are null while a pair's kernels warm up: VPIN needs 50 complete volume
// buckets (about one trading day), the regime 20 closed 5-minute bars.
const SignalScore = object({
  symbol: str, score, direction: enums.direction, vpin: nullable(vpin),
  cvd: nullable(described(num, 'Cumulative volume delta, USD.')), regime: nullable(enums.regime),
  fundingAnnualized: nullable(fundingAnnualized),
});

const usdByCategory: Schema = {
  type: 'object',
  propertyNames: { enum: [...WALLET_CATEGORIES] },
  additionalProperties: num,
};

const DeepView = object({
  symbol: str, price: num, cvd: nullable(num),
  cvdHistory: array(object({ time, cvd: num })),
  obi: nullable(num), ofi: nullable(num), vpin: nullable(vpin), kyleLambda: nullable(num),
  whales: array(described(object({
    address: described(nullable(str), 'The aggressor (null when the trade named none).'),
    side: described(oneOf(['buy', 'sell']), 'The aggressor side of the print.'),
    notional: num, price: num, size: num, time,
  }), 'Recent large prints (trades at or above the whale threshold), newest first.')),
  smartMoney: object({ long: usdByCategory, short: usdByCategory, net: num }),
  absorption: array(object({ time, kind: str, notional: num })),
  regime: nullable(enums.regime), signalScore: nullable(score), basis,
  ...staleness, ...freshness,
});

const WhalePosition = object({
  address: str, label: nullable(str), category: enums.category, accountValue: num, symbol: str,
  side: enums.side, notional: num, leverage: num, entryPrice: num, unrealizedPnl: num,
});

const venueFunding = nullable(object({ rate: num, intervalHours: num, annualized: num }));

const FundingArb = object({
  symbol: str,
  home: described(num, 'Raw funding rate per settlement interval on the home venue.'),
  exchange_b: nullable(num), exchange_c: nullable(num), exchange_d: nullable(num),
  exchange_e: nullable(num),
  maxSpread: described(num, 'Equals spread (kept for compatibility).'),
  spread: described(num, 'Highest minus lowest hourly-equivalent rate (rate / intervalHours).'),
  spreadAnnualized: described(num, 'Percent: spread * 24 * 365 * 100.'),
  longVenue: described(nullable(enums.venue), 'Venue with the lowest hourly-equivalent rate.'),
  shortVenue: described(nullable(enums.venue), 'Venue with the highest hourly-equivalent rate.'),
  venues: object(Object.fromEntries(VENUES.map((v) => [v, venueFunding]))),
  openInterest: described(nullable(num),
    'Home venue open interest, USD (null when the pair is not in the universe).'),
  volume24h: described(nullable(num),
    'Home venue 24h notional volume, USD (null when the pair is not in the universe).'),
  tracked: described(bool, 'One of the 100 pairs with orderflow analytics.'),
});

const WalletPositionItem = object({
  symbol: str, side: enums.side, notional: num, size: num, entryPrice: num, leverage: num,
  unrealizedPnl: num, liquidationPrice: nullable(num),
}, ['size', 'entryPrice', 'leverage', 'unrealizedPnl', 'liquidationPrice']);

const Wallet = object({
  address: str, label: nullable(str), category: enums.category, accountValue: num,
  positions: array(ref('WalletPosition')),
});

export const viewSchemas: Record<string, Schema> = {
  Pair,
  Screener: object({ pairs: array(ref('Pair')), count: int, ...freshness }),
  PairDetail,
  SignalScore,
  Signals: described({ type: 'object', additionalProperties: ref('SignalScore') },
    'Keyed by pair symbol. Freshness is in the Last-Modified and X-Producer-Cadence-Ms headers.'),
  DeepView,
  WhalePosition,
  SmartMoney: object({ wallets: int, positions: array(ref('WhalePosition')), ...freshness }),
  FundingArb,
  FundingArbList: object({ pairs: array(ref('FundingArb')), ...freshness }),
  Cvd: object({
    symbol: str, interval: oneOf(['1m', '5m', '15m', '1h']), cvd: nullable(num),
    points: array(object({ time, cvd: num })), basis, ...freshness, ...staleness,
  }),
  LiquidationMap: object({
    symbol: str, markPrice: num, bandWidthPct: num,
    coverage: described(num, 'Share of open interest the tracked positions cover, 0 to 1.'),
    bands: array(object({ priceLow: num, priceHigh: num, longNotional: num,
      shortNotional: num })),
    ...freshness,
  }),
  WalletPosition: WalletPositionItem,
  Wallet,
  WalletDetail: { allOf: [ref('Wallet'), object({ ...freshness })] },
  Wallets: object({ wallets: array(ref('Wallet')), count: int, ...freshness }),
};
