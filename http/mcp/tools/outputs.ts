// Output schemas of the MCP tools: the containers the tools build, items described for agents.
// Items stay loose: they are the REST views as served, and new fields may appear in them.
import { z } from 'zod';

const count = z.number().int().describe('Items returned.');
const total = z.number().int().describe('Items that matched before the limit.');

const pair = z.looseObject({ symbol: z.string() }).describe('A pair: symbol, price (mark, USD), ' +
  'change24h (%), volume24h (USD), openInterest (USD), fundingRate (raw hourly), ' +
  'fundingAnnualized (%, on the venue settlement interval).');

export const screenerOutput = z.looseObject({ pairs: z.array(pair), count, total });

export const pairOutput = z.looseObject({ symbol: z.string() }).describe('Pair detail: the pair ' +
  'fields plus vpin (0..1), vpinLevel, signalScore (-100..100), signalDirection and regime.');

export const signalsOutput = z.looseObject({
  signals: z.array(z.looseObject({ symbol: z.string() }).describe('symbol, score (-100..100), ' +
    'direction (LONG, SHORT, NEUTRAL), vpin (0..1), cvd (USD), regime.')),
  count,
  total,
});

export const smartMoneyOutput = z.looseObject({
  positions: z.array(z.looseObject({}).describe('address, label, category, accountValue, ' +
    'symbol, side (long, short), notional (USD), leverage, entryPrice, unrealizedPnl (USD).')),
  count,
  total,
});

export const deepViewOutput = z.looseObject({ symbol: z.string() }).describe('symbol, price, ' +
  'cvd, cvdHistory, obi, ofi, vpin, kyleLambda, whales, smartMoney, regime, signalScore.');

export const fundingArbOutput = z.looseObject({
  pairs: z.array(z.looseObject({ symbol: z.string() }).describe('symbol, raw rate per venue ' +
    '(home, exchange_b..exchange_e; null where not listed), venues {rate, intervalHours, ' +
    'annualized}, longVenue, shortVenue, spread, spreadAnnualized (%), maxSpread.')),
  count,
  total,
});

export const usageOutput = z.looseObject({
  plan: z.string().nullable(),
  limit: z.number(),
  used: z.number(),
  remaining: z.number(),
  resetsAt: z.string().describe('ISO 8601 UTC: next midnight Europe/Rome.'),
  timeZone: z.string(),
  grandfathered: z.boolean(),
  grandfatheredUntil: z.string().nullable(),
});

const moverList = z.array(pair);

export const topMoversOutput = z.looseObject({
  gainers: moverList, losers: moverList, minVolume24h: z.number(),
});

export const fundingExtremesOutput = z.looseObject({
  highest: moverList.describe('Most positive fundingAnnualized first: longs pay shorts.'),
  lowest: moverList.describe('Most negative fundingAnnualized first: shorts pay longs.'),
  minVolume24h: z.number(),
});

export const marketSummaryOutput = z.looseObject({
  pairs: z.number().int().describe('Listed pairs, delisted included.'),
  activePairs: z.number().int().describe('Pairs with 24h volume above zero.'),
  totalVolume24h: z.number().describe('USD.'),
  totalOpenInterest: z.number().describe('USD.'),
  advancers: z.number().int(),
  decliners: z.number().int(),
  medianChange24h: z.number().nullable().describe('% over active pairs.'),
  averageFundingAnnualized: z.number().nullable()
    .describe('%, weighted by open interest, over active pairs.'),
  topByVolume: moverList,
});
