// `orderflow analyze` through main(): both CSV formats, a book file, options, JSON output and
// line-numbered errors with exit code 2.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { main } from '../../bin/main.js';
import type { CommandIo } from '../../bin/cli.js';
import { tempDir } from '../helpers/eventually.js';
import { venueFixture } from '../helpers/fixtures.js';
import { realL2Books } from '../kernels/helpers/streams.js';

async function analyze(...args: string[]) {
  let stdout = '';
  let stderr = '';
  const io: CommandIo = { stdout: (t) => { stdout += t; }, stderr: (t) => { stderr += t; },
    env: {} };
  const code = await main(['analyze', ...args], io);
  return { code, stdout, stderr };
}

let dir = '';
test.before(async () => { dir = await tempDir('orderflow-analyze-'); });
test.after(async () => { await rm(dir, { recursive: true, force: true }); });

const BINANCE = venueFixture('binance_usdm_btcusdt_2024-08-08_trades.csv');

test('all trade metrics over the real Binance CSV, JSON', async () => {
  const r = await analyze('--trades', BINANCE, '--bucket-volume', '10', '--window', '50',
    '--kyle-interval-ms', '5000', '--kyle-min-intervals', '5', '--metric', 'all', '--json');
  assert.is(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.is(out.input.trades, 21_313);
  assert.ok(Math.abs(out.metrics.cvd.final.cvd - 4_549_112.413) < 1e-3);
  assert.is(out.metrics.vpin.final.bucketsCompleted, 242);
  assert.is(out.metrics.vpin.seriesTotal, 193);
  assert.ok(out.metrics.vpin.final.vpin > 0 && out.metrics.vpin.final.vpin < 1);
  assert.ok(typeof out.metrics.kyle.final.kyleLambda === 'number');
  assert.is(out.metrics.obi, null, 'no --book: obi is null');
});

test('the B/S format, BVC mode with Student-t, a book file with replay lines', async () => {
  const csv = join(dir, 't.csv');
  await writeFile(csv, 'time_ms,price,size,side\n' + Array.from({ length: 400 }, (_, i) =>
    [1000 + i * 1000, 100 + Math.sin(i / 7), 1 + (i % 3), i % 4 === 0 ? 'S' : 'B'].join(','))
    .join('\n'));
  const book = join(dir, 'b.ndjson');
  const lines = realL2Books().map((b) => JSON.stringify({
    type: 'book', symbol: 'BTC', tsMs: b.tsMs,
    bids: Array.from(b.bidPx).flatMap((p, k) => [p, b.bidSz[k]]),
    asks: Array.from(b.askPx).flatMap((p, k) => [p, b.askSz[k]]),
  }));
  lines.splice(3, 0, JSON.stringify({ type: 'trade', symbol: 'BTC', tsMs: 1 }));
  await writeFile(book, lines.join('\n') + '\n');
  const r = await analyze('--trades', csv, '--book', book, '--mode', 'bvc', '--bvc-nu', '4',
    '--bvc-bar-ms', '10000', '--bucket-volume', '20', '--window', '10', '--interval-ms', '1000',
    '--json');
  assert.is(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.is(out.input.books, 46);
  assert.is(out.metrics.vpin.params.mode, 'bvc');
  assert.ok(out.metrics.vpin.final.vpin !== null);
  assert.ok(out.metrics.obi.final.obi >= -1 && out.metrics.obi.final.obi <= 1);
  assert.ok(out.metrics.ofi.seriesTotal > 10);
  const text = await analyze('--trades', csv, '--metric', 'cvd');
  assert.match(text.stdout, /cvd: \{"cvd":/);
});

test('bad files and options: a message naming line or option, exit 2', async () => {
  const bad = join(dir, 'bad.csv');
  await writeFile(bad, 'time_ms,price,size,side\n1,100,1,B\n2,100,zero,S\n');
  let r = await analyze('--trades', bad);
  assert.is(r.code, 2, r.stderr);
  assert.match(r.stderr, /bad\.csv: line 3: size must be a positive number \(was "zero"\)/);
  const badBook = join(dir, 'bad.ndjson');
  await writeFile(badBook,
    '{"tsMs":1,"bids":[10,1],"asks":[11,1]}\n{"tsMs":2,"bids":[10,1,11,1],"asks":[12,1]}\n');
  r = await analyze('--trades', BINANCE, '--book', badBook, '--metric', 'obi');
  assert.is(r.code, 2);
  assert.match(r.stderr, /line 2: bids must be best first/);
  await writeFile(badBook, '{"tsMs":1,"bids":[10,1]\n');
  r = await analyze('--book', badBook, '--metric', 'ofi');
  assert.match(r.stderr, /line 1: must be one JSON object/);
  r = await analyze('--trades', BINANCE, '--window', 'many');
  assert.is(r.code, 2);
  assert.match(r.stderr, /--window must be an integer from 1 to 10000 \(was "many"\)/);
  r = await analyze('--trades', BINANCE, '--mode', 'tick');
  assert.match(r.stderr, /--mode must be one of aggressor, bvc/);
  r = await analyze('--metric', 'cvd');
  assert.match(r.stderr, /--trades FILE.csv is required/);
  r = await analyze('--trades', join(dir, 'missing.csv'));
  assert.is(r.code, 2);
  assert.match(r.stderr, /cannot read the file/);
  r = await analyze('--trades', BINANCE, '--bogus');
  assert.is(r.code, 2);
});

test.run();
