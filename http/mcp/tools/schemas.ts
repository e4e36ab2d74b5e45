// Input schemas of the MCP tools (zod 4): each field says what it does, so an agent needs no docs.
import { z } from 'zod';
import { DIRECTIONS, REGIMES, WALLET_CATEGORIES } from '../../../core/messages.js';

/** A plain ticker (BTC, kPEPE) or a builder market `<dex>:<ticker>` (xyz:TSLA). */
export const SYMBOL_PATTERN = /^[A-Za-z0-9]{1,20}(:[A-Za-z0-9]{1,20})?$/;

export const symbol = z.string().trim()
  .regex(SYMBOL_PATTERN, 'expected a pair symbol such as BTC, kPEPE or xyz:TSLA')
  .describe('Pair symbol: the base asset ticker, e.g. "BTC", "ETH", "kPEPE", or a builder ' +
    'market "<dex>:<ticker>" such as "xyz:TSLA". Matched exactly first, then with the ticker ' +
    'in upper case.');

const symbols = z.array(symbol).min(1).max(100).optional()
  .describe('Only these pairs, e.g. ["BTC","ETH"]. Omit for all pairs.');

const limit = (fallback: number, max: number) => z.number().int().min(1).max(max)
  .default(fallback).describe(`How many items to return, 1 to ${max} (default ${fallback}).`);

const minVolumeText = 'Only pairs whose 24h notional volume in USD is at least this, e.g. ' +
  '1000000. Delisted pairs have 0 volume.';
const minVolume24h = () => z.number().min(0).optional().describe(minVolumeText);
const minVolume24hOr = (fallback: number) => z.number().min(0).default(fallback)
  .describe(`${minVolumeText} Default ${fallback}.`);

const order = z.enum(['desc', 'asc']).default('desc')
  .describe('Sort order: "desc" (largest first, the default) or "asc".');

export const SCREENER_SORTS = [
  'volume24h', 'openInterest', 'change24h', 'fundingAnnualized', 'fundingRate', 'price', 'symbol',
] as const;

export const screenerInput = z.strictObject({
  limit: limit(50, 500),
  sort: z.enum(SCREENER_SORTS).default('volume24h').describe('Field to sort by: volume24h ' +
    '(USD, default), openInterest (USD), change24h (%), fundingAnnualized (%), fundingRate ' +
    '(raw hourly), price (mark, USD) or symbol.'),
  order,
  minVolume24h: minVolume24h(),
  symbols,
});

export const pairInput = z.strictObject({ symbol });

export const signalsInput = z.strictObject({
  direction: z.enum(DIRECTIONS).optional()
    .describe('Only signals in this direction: LONG, SHORT or NEUTRAL.'),
  minAbsScore: z.number().min(0).max(100).optional()
    .describe('Only signals whose |score| is at least this (score runs -100 strong sell to ' +
      '+100 strong buy), e.g. 50 for strong signals either way.'),
  regime: z.enum(REGIMES).optional()
    .describe('Only pairs in this market regime: trending, ranging, volatile or squeeze.'),
  symbols,
  sort: z.enum(['strength', 'score', 'vpin', 'symbol']).default('strength')
    .describe('"strength" (largest |score| first, default), "score" (most bullish first), ' +
      '"vpin" (most toxic flow first) or "symbol".'),
  limit: limit(20, 100),
});

export const smartMoneyInput = z.strictObject({
  symbol: symbol.optional().describe('Only positions in this pair, e.g. "BTC".'),
  side: z.enum(['long', 'short']).optional().describe('Only long or only short positions.'),
  category: z.enum(WALLET_CATEGORIES).optional().describe('Only wallets of this category.'),
  minNotional: z.number().min(0).optional()
    .describe('Only positions whose notional in USD is at least this, e.g. 1000000.'),
  limit: limit(50, 500),
});

export const deepViewInput = z.strictObject({
  symbol,
  historyLimit: z.number().int().min(0).max(1000).optional()
    .describe('Keep only the newest N points of cvdHistory (0 drops it). Omit for all.'),
});

export const fundingArbInput = z.strictObject({
  symbols,
  minSpreadAnnualized: z.number().min(0).optional()
    .describe('Only pairs whose annualized spread (percent, on hourly-equivalent rates) is ' +
      'at least this, e.g. 10.'),
  limit: limit(25, 200),
});

export const noInput = z.strictObject({});

export const topMoversInput = z.strictObject({
  direction: z.enum(['gainers', 'losers', 'both']).default('both')
    .describe('"gainers" (largest 24h rise), "losers" (largest 24h fall) or "both" (default).'),
  limit: limit(10, 50),
  minVolume24h: minVolume24hOr(100_000),
});

export const fundingExtremesInput = z.strictObject({
  side: z.enum(['positive', 'negative', 'both']).default('both')
    .describe('"positive" (longs pay the most), "negative" (shorts pay the most) or "both".'),
  limit: limit(10, 50),
  minVolume24h: minVolume24hOr(100_000),
});

export type ScreenerArgs = z.output<typeof screenerInput>;
export type SignalsArgs = z.output<typeof signalsInput>;
export type SmartMoneyArgs = z.output<typeof smartMoneyInput>;
export type FundingArbArgs = z.output<typeof fundingArbInput>;
export type TopMoversArgs = z.output<typeof topMoversInput>;
export type FundingExtremesArgs = z.output<typeof fundingExtremesInput>;
