// The operations of the REST API as the OpenAPI document lists them (one per route).
import type { Plan } from '../../core/messages.js';
import { ref, type Schema } from './schemas-common.js';

export interface Operation {
  readonly id: string;
  readonly path: string;
  readonly summary: string;
  readonly description?: string;
  readonly tag: 'market' | 'orderflow' | 'wallets' | 'account' | 'operations';
  readonly key: 'required' | 'optional' | 'none';
  readonly plan?: Plan;
  readonly burst?: number;
  readonly parameters: readonly string[];
  readonly schema?: Schema;
  /** Served from a snapshot: ETag, 304, Last-Modified, cadence headers. */
  readonly feed: boolean;
  readonly csv?: boolean;
  readonly contentType?: string;
  readonly okDescription?: string;
  readonly extraResponses?: Readonly<Record<string, Schema>>;
  /** Other content types of the 200 answer (format=csv, format=arrow). */
  readonly alternates?: Readonly<Record<string, Schema>>;
}

const v1 = (path: string) => `/api/v1/${path}`;
const feed = (op: Omit<Operation, 'feed' | 'burst'> & { burst?: number }): Operation =>
  ({ burst: 60, ...op, feed: true });

export const operations: readonly Operation[] = [
  feed({ id: 'getScreener', path: v1('screener'), tag: 'market', key: 'optional',
    summary: 'Every listed perpetual, delisted and builder markets included',
    parameters: [], schema: ref('Screener') }),
  feed({ id: 'getPair', path: v1('pair/{symbol}'), tag: 'market', key: 'optional',
    summary: 'One pair: market data, and orderflow fields when tracked (null otherwise)',
    parameters: ['symbol'], schema: ref('PairDetail') }),
  feed({ id: 'getSignals', path: v1('signals'), tag: 'orderflow', key: 'required',
    plan: 'Trader', summary: 'Signal scores of the tracked pairs, keyed by symbol',
    parameters: [], schema: ref('Signals') }),
  feed({ id: 'getSmartMoney', path: v1('smart-money'), tag: 'wallets', key: 'required',
    plan: 'Pro', summary: 'Positions of the tracked wallets', parameters: [],
    schema: ref('SmartMoney') }),
  feed({ id: 'getDeepView', path: v1('deep-view/{symbol}'), tag: 'orderflow', key: 'required',
    plan: 'Whale', burst: 10, summary: 'All orderflow metrics of a tracked pair',
    description: 'A listed pair that is not tracked answers 404 not_tracked.',
    parameters: ['symbol'], schema: ref('DeepView') }),
  feed({ id: 'getFundingArb', path: v1('funding-arb'), tag: 'market', key: 'required',
    plan: 'Whale', summary: 'Funding on the five venues, compared on hourly-equivalent rates',
    parameters: [], schema: ref('FundingArbList') }),
  { id: 'getUsage', path: v1('usage'), tag: 'account', key: 'required', plan: 'Free', burst: 60,
    summary: 'The daily limit applied to the calling key, and what is left of it',
    description: 'Not counted against the daily quota, so it answers after the quota is used.',
    parameters: [], schema: ref('Usage'), feed: false },
  feed({ id: 'getCvd', path: v1('cvd/{symbol}'), tag: 'orderflow', key: 'required',
    plan: 'Whale', burst: 10, summary: 'Current CVD and its history at one interval',
    parameters: ['symbol', 'interval', 'limit'], schema: ref('Cvd') }),
  feed({ id: 'getFootprint', path: v1('footprint/{symbol}'), tag: 'orderflow', key: 'required',
    plan: 'Whale', burst: 10, summary: 'Footprint bars: buy and sell volume at each price level',
    description: 'Levels fixed per UTC day; the last bar may be the open one (closed: false). ' +
      'Bars built from candles have no levels (basis). 5m bars are kept 7 days, 15m 14, 1h 30 ' +
      '(configurable). Burst shared with the volume profile.',
    parameters: ['symbol', 'footprintTimeframe', 'footprintBars', 'answerFormat'],
    schema: ref('Footprint'), alternates: { 'text/csv': { schema: { type: 'string' } } } }),
  feed({ id: 'getVolumeProfile', path: v1('volume-profile/{symbol}'), tag: 'orderflow',
    key: 'required', plan: 'Whale', burst: 10,
    summary: 'Volume at price of a UTC day or a range, with its value area and naked POCs',
    description: 'From the stored footprint bars (5m within their retention, 1h beyond). ' +
      'Burst shared with the footprint.',
    parameters: ['symbol', 'profileSession', 'profileStart', 'profileEnd', 'answerFormat'],
    schema: ref('VolumeProfile'), alternates: { 'text/csv': { schema: { type: 'string' } } } }),
  feed({ id: 'getLiquidationMap', path: v1('liquidation-map/{symbol}'), tag: 'wallets',
    key: 'required', plan: 'Whale', parameters: ['symbol'], schema: ref('LiquidationMap'),
    summary: 'Estimated liquidation notional by price band, from tracked positions' }),
  feed({ id: 'getWallets', path: v1('wallets'), tag: 'wallets', key: 'required',
    plan: 'Whale', summary: 'Tracked wallets with category and positions', parameters: [],
    schema: ref('Wallets') }),
  feed({ id: 'getWallet', path: v1('wallets/{address}'), tag: 'wallets', key: 'required',
    plan: 'Whale', summary: 'One tracked wallet', parameters: ['address'],
    schema: ref('WalletDetail') }),
  feed({ id: 'exportView', path: v1('export/{view}.csv'), tag: 'market', key: 'required',
    plan: 'Whale', csv: true, parameters: ['view'],
    summary: 'A JSON view as CSV (RFC 4180, header line, CRLF)' }),
  feed({ id: 'getHistory', path: v1('history/{symbol}'), tag: 'orderflow', key: 'required',
    plan: 'Pro', burst: 30, summary: 'Recorded history of a pair: candle, OI, funding, flow',
    description: 'Pro reaches back 30 days; Whale and API the whole retention (7 days of ' +
      '1-minute, 180 days of 1-hour points). Page with nextCursor. format=csv and ' +
      'format=arrow carry the page range and cursor in X-Coverage-From, X-Coverage-To and ' +
      'X-Next-Cursor; Arrow answers 503 while its encoder loads (first use).',
    parameters: ['symbol', 'historyMetrics', 'historyInterval', 'start', 'end', 'historyLimit',
      'cursor', 'historyFormat'], schema: ref('History'),
    alternates: { 'text/csv': { schema: { type: 'string' } },
      'application/vnd.apache.arrow.stream': { schema: { type: 'string',
        contentMediaType: 'application/vnd.apache.arrow.stream' } } } }),
  feed({ id: 'getSignalHistory', path: v1('signals/history'), tag: 'orderflow',
    key: 'required', plan: 'Pro', burst: 30, summary: 'Past entry signals with their outcomes',
    description: 'Oldest first; default the last 7 days (market time).',
    parameters: ['signalSymbol', 'timeframe', 'grade', 'start', 'end', 'signalLimit', 'cursor'],
    schema: ref('SignalHistory') }),
  feed({ id: 'getSignalPerformance', path: v1('signals/performance'), tag: 'orderflow',
    key: 'required', plan: 'Pro', burst: 30, summary: 'How the entry signals have done, by group',
    description: 'Per group: hit rate with its Wilson 95 % interval, expectancy in R with a ' +
      '95 % interval (seeded bootstrap below 200 evaluated, t above), random- and ' +
      'trend-direction baselines on the same bars, the edge over the random one and whether ' +
      'it survives Benjamini-Hochberg at 5 %; plus the information coefficient, the grades\' ' +
      'calibration and the multiple-comparisons note. format=csv: the group rows only.',
    parameters: ['window', 'groupBy', 'performanceFormat'], schema: ref('SignalPerformance'),
    alternates: { 'text/csv': { schema: { type: 'string' } } } }),
  { id: 'getOpenApi', path: v1('openapi.json'), tag: 'operations', key: 'none',
    summary: 'This document', parameters: [], schema: { type: 'object' }, feed: false,
    extraResponses: { '304': { $ref: '#/components/responses/NotModified' } } },
  { id: 'getHealth', path: '/healthz', tag: 'operations', key: 'none',
    summary: 'Alive', parameters: [], schema: ref('Health'), feed: false },
  { id: 'getReadiness', path: '/readyz', tag: 'operations', key: 'none',
    summary: 'Feeds connected and snapshots fresh', parameters: [], schema: ref('Readiness'),
    feed: false, extraResponses: { '503': { description: 'Not ready (same body).',
      content: { 'application/json': { schema: ref('Readiness') } } } } },
  { id: 'getMetrics', path: '/metrics', tag: 'operations', key: 'none',
    summary: 'Prometheus text (loopback clients only unless configured public)',
    parameters: [], schema: { type: 'string' }, contentType: 'text/plain', feed: false },
];
