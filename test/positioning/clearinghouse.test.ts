// The real clearinghouseState file parsed (every position field), refused when malformed, and
// fed through the tracker into the smart-money, wallet, pair and liquidation views.
import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  clearinghouseToWallet, parseClearinghouseState,
} from '../../actors/feed/home/clearinghouse.js';
import { buildLiquidationMap } from '../../actors/positioning/liquidation-map.js';
import { parseMarginTables } from '../../actors/positioning/margin-tables.js';
import {
  buildPairPositioning, buildSmartMoneyView, buildWalletsView, buildWalletView,
} from '../../actors/positioning/views.js';
import { WalletTracker } from '../../actors/positioning/wallet-tracker.js';
import { venueFixture } from '../helpers/fixtures.js';

const address = '0x' + '5E'.repeat(20);
const read = (file: string) => JSON.parse(readFileSync(venueFixture(file), 'utf8'));
const body = read('hl_clearinghouseState_2023-03-27.json');
const tsMs = Date.UTC(2023, 2, 27);

function parsed() {
  const result = parseClearinghouseState(body, address, tsMs);
  if (!result.ok) throw new Error(result.error);
  return result.value;
}

test('every field of the real file', () => {
  const state = parsed();
  assert.equal([state.type, state.address, state.tsMs, state.accountValue],
    ['wallet', address.toLowerCase(), tsMs, 1182.312496]);
  assert.is(state.positions.length, 12);
  assert.equal(state.positions[0], {
    symbol: 'BTC', size: -0.00785, entryPx: 26951, leverage: 20, leverageType: 'cross',
    positionValue: 211.64542, unrealizedPnl: -0.08007, liquidationPx: 173198.69592357,
    marginUsed: 10.582271,
  });
  assert.equal(state.positions[1], {
    symbol: 'ETH', size: 0.1334, entryPx: 1705.82, leverage: 20, leverageType: 'cross',
    positionValue: 227.675114, unrealizedPnl: 0.118726, liquidationPx: null,
    marginUsed: 11.383755,
  });
  assert.equal(state.positions.map((p) => p.symbol), ['BTC', 'ETH', 'ATOM', 'MATIC', 'DYDX',
    'SOL', 'AVAX', 'BNB', 'APE', 'OP', 'LTC', 'ARB']);
  assert.ok(state.positions.every((p) => Number.isFinite(p.size) && p.size !== 0));
});

test('the response time wins over the receive time; zero-size positions are dropped', () => {
  const copy = structuredClone(body);
  copy.time = 1_700_000_000_000;
  copy.assetPositions[0].position.szi = '0.0';
  const result = parseClearinghouseState(copy, address, tsMs);
  assert.ok(result.ok);
  if (result.ok) assert.equal([result.value.tsMs, result.value.positions.length],
    [1_700_000_000_000, 11]);
});

test('malformed responses are errors naming the field, never throws', () => {
  const bad = (mutate: (copy: any) => unknown, pattern: RegExp, who = address) => {
    const copy = structuredClone(body);
    const replaced = mutate(copy);
    const result = parseClearinghouseState(replaced === undefined ? copy : replaced, who, tsMs);
    assert.not.ok(result.ok);
    if (!result.ok) assert.match(result.error, pattern);
  };
  bad(() => null, /clearinghouseState must be an object \(was null\)/);
  bad(() => [], /clearinghouseState must be an object/);
  bad((c) => { delete c.marginSummary; }, /marginSummary\.accountValue must be a decimal/);
  bad((c) => { c.marginSummary.accountValue = 'lots'; }, /\(was "lots"\)/);
  bad((c) => { c.assetPositions = {}; }, /assetPositions must be an array/);
  bad((c) => { c.assetPositions[2].position.szi = 'x'; },
    /assetPositions\[2\]\.position\.szi must be a decimal \(was "x"\)/);
  bad((c) => { c.assetPositions[0].position.leverage = { type: 'weird', value: 3 }; },
    /assetPositions\[0\]\.position\.leverage must be/);
  bad((c) => { c.assetPositions[0].position.liquidationPx = 'NaN'; }, /liquidationPx/);
  bad((c) => { c.assetPositions[0].position.coin = 7; }, /position\.coin must be a symbol/);
  bad((c) => { c.assetPositions[1] = 'x'; }, /assetPositions\[1\]\.position must be an object/);
  bad((c) => { c.assetPositions = new Array(1_001).fill(c.assetPositions[0]); },
    /at most 1000 entries \(was 1001\)/);
  bad(() => undefined, /address must be 0x \+ 40 hex/, '0xabc');
  assert.is(clearinghouseToWallet({}, address, tsMs), null, 'the feed hook form');
  assert.is(clearinghouseToWallet(body, address, tsMs)!.positions.length, 12);
});

test('the real wallet through the tracker and every view', () => {
  const state = parsed();
  const tracker = new WalletTracker();
  assert.ok(tracker.applyState(state));
  const records = tracker.records(tsMs);
  const smart = buildSmartMoneyView(records, tsMs);
  assert.is(smart.wallets, 1);
  assert.is(smart.positions.length, 12);
  assert.equal(Object.keys(smart.positions[0]).sort(), ['accountValue', 'address', 'category',
    'entryPrice', 'label', 'leverage', 'notional', 'side', 'symbol', 'unrealizedPnl']);
  assert.equal(smart.positions[0], {
    address: address.toLowerCase(), label: null, category: 'directional_whale',
    accountValue: 1182.312496,
    symbol: 'BNB', side: 'long', notional: 588.0204, leverage: 20, entryPrice: 306.509,
    unrealizedPnl: 0.749156,
  }, 'largest first; 20x settings and 2.9x effective leverage are not degen');
  assert.is(smart.positions.find((p) => p.symbol === 'BTC')!.side, 'short');

  const view = buildWalletView(records[0])!;
  assert.equal([view.accountValue, view.positions.length, view.stateAt],
    [1182.312496, 12, '2023-03-27T00:00:00.000Z']);
  assert.equal(view.positions.find((p) => p.symbol === 'BTC'), {
    symbol: 'BTC', side: 'short', size: 0.00785, notional: 211.64542, leverage: 20,
    leverageType: 'cross', entryPrice: 26951, unrealizedPnl: -0.08007,
    liquidationPrice: 173198.69592357, marginUsed: 10.582271,
  });
  assert.equal(buildWalletsView(records).count, 1);

  const pair = buildPairPositioning('ETH', records, []);
  assert.equal(pair.smartMoney.long[records[0].category], 227.675114);
  assert.is(pair.smartMoney.net, 227.675114);

  const tables = parseMarginTables(read('hl_metaAndAssetCtxs_main_2026-02-06.json'));
  assert.ok(tables.ok);
  if (!tables.ok) return;
  const btcMark = 211.64542 / 0.00785;
  const map = buildLiquidationMap('BTC', btcMark, [state], 1_000,
    { bandWidthPct: 10, bandsEachSide: 9, marginTables: tables.value });
  assert.equal([map.positions, map.fromVenue, map.estimated], [1, 1, 0]);
  assert.equal(map.outsideNotional, { long: 0, short: 211.64542 }, 'liq 173k is beyond +90 %');
  const ethMark = 227.675114 / 0.1334;
  const eth = buildLiquidationMap('ETH', ethMark, [state], 1_000,
    { bandWidthPct: 10, bandsEachSide: 9, marginTables: tables.value });
  assert.equal([eth.fromVenue, eth.estimated], [0, 1], 'no venue price: estimated');
});

test.run();
