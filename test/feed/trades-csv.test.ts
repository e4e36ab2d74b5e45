// The trades CSV reader: both formats, line-numbered errors naming the column, the real file.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseTradesCsv, readTradesCsv } from '../../actors/feed/trades-csv.js';
import { venueFixture } from '../helpers/fixtures.js';

test('the analyze format: B/S sides, any column order, CRLF and blank lines', () => {
  const r = parseTradesCsv('side,time_ms,price,size\r\nB,1000,100.5,2\r\n\r\nS,1000,100,0.5\r\n');
  assert.ok(r.ok);
  if (!r.ok) return;
  assert.is(r.value.count, 2);
  assert.is(r.value.format, 'time_ms,price,size,side');
  assert.equal([r.value.tsMs[1], r.value.price[0], r.value.size[1], r.value.side[0],
    r.value.side[1]],
    [1000, 100.5, 0.5, 1, -1]);
});

test('bad rows give the line, the column, what was expected and what was found', () => {
  const cases: [string, number, RegExp][] = [
    ['time_ms,price,size,side\n1,abc,1,B\n', 2, /price must be a positive number \(was "abc"\)/],
    ['time_ms,price,size,side\n1,1,1,B\n2,1,-3,S\n', 3,
      /size must be a positive number \(was "-3"\)/],
    ['time_ms,price,size,side\n1,1,1,X\n', 2, /side must be B or S .* \(was "X"\)/],
    ['time_ms,price,size,side\n5,1,1,B\n4,1,1,B\n', 3, /time must not decrease \(was 4 after 5\)/],
    ['time_ms,price,size,side\n1.5,1,1,B\n', 2, /time must be epoch milliseconds/],
    ['time_ms,price,size,side\n1,1,1\n', 2, /expected 4 columns \(was 3\)/],
    ['when,price,size,side\n', 1, /header must name time_ms/],
    ['', 1, /missing header/],
  ];
  for (const [text, line, message] of cases) {
    const r = parseTradesCsv(text);
    assert.is(r.ok, false, text);
    if (r.ok) continue;
    assert.is(r.line, line, text);
    assert.match(r.message, message);
  }
});

test('the derived Binance CSV of the shared data reads whole, taker buys as +1', async () => {
  const r = await readTradesCsv(venueFixture('binance_usdm_btcusdt_2024-08-08_trades.csv'));
  assert.ok(r.ok);
  if (!r.ok) return;
  assert.is(r.value.format, 'binance');
  assert.is(r.value.count, 21_313);
  let buys = 0;
  for (let i = 0; i < r.value.count; i++) if (r.value.side[i] === 1) buys += 1;
  assert.is(buys, 9616, 'the README counts 9,616 taker buys');
  assert.is(r.value.tsMs[0], 1723161256322);
  const missing = await readTradesCsv('/nonexistent/trades.csv');
  assert.is(missing.ok, false);
});

test.run();
