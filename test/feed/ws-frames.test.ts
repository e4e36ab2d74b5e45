// Pure mapping of the home venue's frames, on the real recording and on bad input.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { parseFrame } from '../../actors/feed/home/ws-frames.js';
import { createBackoff } from '../../actors/feed/home/backoff.js';
import { IngestGuard } from '../../actors/feed/ingest-guard.js';
import { venueFixture } from '../helpers/fixtures.js';

const lines = readFileSync(venueFixture('hl_ws_btc_raw_2025-01-26.txt'), 'utf8').split('\n')
  .filter(Boolean).map((l) => l.slice(l.indexOf(' ') + 1));

test('the real recording maps to 64 trades and 46 books of 20 levels', () => {
  let trades = 0;
  let books = 0;
  for (const line of lines) {
    const f = parseFrame(line, 0);
    if (f.kind === 'trades') {
      trades += f.trades.length;
      assert.is(f.bad.length, 0);
    } else if (f.kind === 'book') {
      books++;
      assert.is(f.book.bids.length, 40);
      assert.ok(f.book.bids[0] < f.book.asks[0]);
    } else assert.unreachable(f.kind);
  }
  assert.is(trades, 64);
  assert.is(books, 46);
});

test('a trade: strings to numbers, B is a buy, users are [buyer, seller]', () => {
  const f = parseFrame(lines[2], 0);
  assert.is(f.kind, 'trades');
  if (f.kind !== 'trades') return;
  const t = f.trades.find((x) => x.tradeId === '121451470284048')!;
  assert.equal(t, { type: 'trade', symbol: 'BTC', tsMs: 1737918794873, price: 105056, size: 0.00219,
    side: 1, tradeId: '121451470284048', buyer: '0xe9ed7e16612d676df804f5aecd16e1f9bf9ec9dd',
    seller: '0x6802b4267f7f2bf7003dcf993c51542245b38329' });
  assert.ok(f.trades.some((x) => x.side === -1));
});

test('bad input is reported with its reason, never thrown', () => {
  const trade = (fields: Record<string, unknown>) => JSON.stringify({ channel: 'trades',
    data: [{ coin: 'BTC', px: '1', sz: '1', side: 'B', tid: 1, time: 5, users: [], ...fields }] });
  const reason = (text: string) => {
    const f = parseFrame(text, 0);
    return f.kind === 'trades' ? f.bad[0]?.reason : f.kind === 'drop' ? f.reason : f.kind;
  };
  assert.is(reason('{oops'), 'malformed');
  assert.is(reason('[1,2]'), 'malformed');
  assert.is(reason(trade({ px: 'NaN' })), 'bad_price');
  assert.is(reason(trade({ px: '-3' })), 'bad_price');
  assert.is(reason(trade({ sz: '0' })), 'bad_size');
  assert.is(reason(trade({ side: 'X' })), 'bad_side');
  assert.is(reason(trade({ time: 'soon' })), 'bad_time');
  assert.is(reason('{"channel":"trades","data":{}}'), 'malformed');
  assert.is(reason('{"channel":"l2Book","data":{"coin":"BTC","time":1,"levels":[[]]}}'),
    'malformed');
  assert.is(reason('{"channel":"l2Book","data":{"coin":"BTC","time":1,' +
    '"levels":[[{"px":"1","sz":"-1"}],[]]}}'), 'bad_size');
  assert.is(reason('{"channel":"activeAssetCtx","data":{"coin":"BTC","ctx":{"markPx":"x"}}}'),
    'malformed');
  assert.is(parseFrame('{"channel":"pong"}', 0).kind, 'pong');
  assert.is(parseFrame('{"channel":"error","data":"bad"}', 0).kind, 'venue_error');
});

test('ingest guard: unknown coins, duplicate ids and time going back are refused', () => {
  const guard = new IngestGuard(2);
  guard.setSymbols(['BTC']);
  const t = (tradeId: string, tsMs: number, symbol = 'BTC') => ({ type: 'trade' as const, symbol,
    tsMs, price: 1, size: 1, side: 1 as const, tradeId, buyer: null, seller: null });
  assert.is(guard.check(t('1', 10)), null);
  assert.is(guard.check(t('1', 11)), 'duplicate_trade');
  assert.is(guard.check(t('2', 9)), 'out_of_order');
  assert.is(guard.check(t('3', 10, 'ETH')), 'unknown_coin');
  assert.is(guard.check(t('2', 12)), null);
  assert.is(guard.check(t('3', 12)), null);
  // Bounded memory: the oldest id was forgotten.
  assert.is(guard.check(t('1', 13)), null);
});

test('backoff: exponential, capped, jittered, validated, reset', () => {
  const b = createBackoff({ initialMs: 100, maxMs: 1_000, factor: 2, jitter: 0.5 }, () => 1);
  assert.equal([b.next(), b.next(), b.next(), b.next(), b.next()], [100, 200, 400, 800, 1000]);
  b.reset();
  assert.is(b.next(), 100);
  const low = createBackoff({ initialMs: 100, maxMs: 1_000, factor: 2, jitter: 0.5 }, () => 0);
  assert.is(low.next(), 50);
  assert.throws(() => createBackoff({ initialMs: 0, maxMs: 1, factor: 2, jitter: 0 }), /initialMs/);
  assert.throws(() => createBackoff({ initialMs: 5, maxMs: 1, factor: 2, jitter: 0 }), /maxMs/);
  assert.throws(() => createBackoff({ initialMs: 1, maxMs: 1, factor: 0.5, jitter: 0 }), /factor/);
});

test.run();
