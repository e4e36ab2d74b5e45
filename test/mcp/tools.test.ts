// Pure parts of the MCP tools: selection, digests, display rounding, text, symbol lookup.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { lookupSymbol } from '../../http/mcp/tools/common.js';
import { fundingExtremes, marketSummary, topMovers } from '../../http/mcp/tools/market.js';
import { asRow, rowsAt } from '../../http/mcp/tools/records.js';
import { fields, table } from '../../http/mcp/tools/render.js';
import { problemResult } from '../../http/mcp/tools/result.js';
import { roundForDisplay } from '../../http/mcp/tools/round.js';
import { screenerInput, signalsInput } from '../../http/mcp/tools/schemas.js';
import { byNumber, selectPairs, selectSignals } from '../../http/mcp/tools/select.js';
import { screenerView, signalsView } from './mcp-fixtures.js';

test('selectPairs: defaults sort by volume, descending, limit 50', () => {
  const picked = selectPairs(screenerView.pairs, screenerInput.parse({}));
  assert.equal(picked.items.map((p) => p.symbol),
    ['BTC', 'ETH', 'SOL', 'kPEPE', 'xyz:TSLA', 'MATIC']);
  const bySymbol = selectPairs(screenerView.pairs,
    screenerInput.parse({ sort: 'symbol', order: 'asc', symbols: ['eth', 'BTC', 'ZZZ'] }));
  assert.equal(bySymbol.items.map((p) => p.symbol), ['BTC', 'ETH']);
  assert.is(bySymbol.total, 2);
});

test('byNumber puts missing values last in either order', () => {
  const rows = [{ symbol: 'A', v: null }, { symbol: 'B', v: 2 }, { symbol: 'C', v: 1 }];
  assert.equal([...rows].sort(byNumber('v', 'asc')).map((r) => r.symbol), ['C', 'B', 'A']);
  assert.equal([...rows].sort(byNumber('v', 'desc')).map((r) => r.symbol), ['B', 'C', 'A']);
});

test('selectSignals: keyed entries become rows; filters combine', () => {
  const all = selectSignals(signalsView, signalsInput.parse({}));
  assert.equal(all.items.map((s) => s.symbol), ['ETH', 'BTC', 'SOL']);
  const longs = selectSignals(signalsView, signalsInput.parse({ direction: 'LONG' }));
  assert.equal(longs.items.map((s) => s.symbol), ['BTC']);
  const none = selectSignals(signalsView, signalsInput.parse({ regime: 'squeeze' }));
  assert.is(none.total, 0);
});

test('digests ignore pairs under the volume floor', () => {
  const movers = topMovers(screenerView.pairs, 1e8, 10);
  assert.equal(movers.gainers.map((p) => p.symbol), ['SOL', 'BTC']);
  assert.equal(movers.losers.map((p) => p.symbol), ['ETH']);
  const extremes = fundingExtremes(screenerView.pairs, 0, 1);
  assert.equal(extremes.highest.map((p) => p.symbol), ['SOL']);
  assert.equal(extremes.lowest.map((p) => p.symbol), ['kPEPE']);
  const empty = marketSummary([]);
  assert.is(empty.medianChange24h, null);
  assert.is(empty.averageFundingAnnualized, null);
});

test('roundForDisplay rounds by field name and leaves integers and strings', () => {
  assert.equal(roundForDisplay({ price: 0.0123456789, change24h: -12.345678, score: 42,
    volume24h: 1234.56, fundingRate: 0.000012345, vpin: 0.45678, symbol: 'BTC',
    nested: [{ notional: 99.5 }], other: 1.23456789 }),
  { price: 0.0123457, change24h: -12.35, score: 42, volume24h: 1235, fundingRate: 0.0000123,
    vpin: 0.457, symbol: 'BTC', nested: [{ notional: 100 }], other: 1.23457 });
});

test('table and fields render readable text', () => {
  const text = table([{ symbol: 'BTC', price: 1.5 }, { symbol: 'kPEPE', price: null }],
    ['symbol', 'price']);
  assert.is(text, 'symbol  price\nBTC     1.5\nkPEPE   -');
  assert.is(table([], ['symbol']), '(none)');
  assert.is(fields({ a: [1, 2], b: { c: 1 }, d: 'x' }), 'a: [2 items]\nb: {"c":1}\nd: x');
});

test('problemResult names the required tier once', () => {
  const result = problemResult({ status: 403, code: 'plan_required', title: 'Plan required',
    detail: 'signals needs a higher plan', extensions: { requiredPlan: 'Trader', plan: 'Free' } });
  assert.ok(result.isError);
  const text = (result.content[0] as { text: string }).text;
  assert.match(text, /Requires the Trader plan/);
  const named = problemResult({ status: 403, code: 'plan_required', title: 'Plan required',
    detail: 'needs Trader', extensions: { requiredPlan: 'Trader' } });
  assert.not.match((named.content[0] as { text: string }).text, /Requires the/);
});

test('lookupSymbol tries the ticker in upper case after the exact symbol', () => {
  const known = new Set(['BTC', 'kPEPE', 'xyz:TSLA']);
  const find = (s: string) => (known.has(s) ? s : undefined);
  assert.equal(lookupSymbol(find, 'kPEPE'), { symbol: 'kPEPE', found: 'kPEPE' });
  assert.equal(lookupSymbol(find, 'btc'), { symbol: 'BTC', found: 'BTC' });
  assert.equal(lookupSymbol(find, 'xyz:tsla'), { symbol: 'xyz:TSLA', found: 'xyz:TSLA' });
  assert.is(lookupSymbol(find, 'NOPE').found, undefined);
});

test('views that are not what the REST endpoint returns are programmer errors', () => {
  assert.throws(() => asRow([], 'screener view'), /screener view must be a JSON object/);
  assert.throws(() => rowsAt({ pairs: 3 }, 'pairs', 'screener view'), /was number/);
});

test.run();
