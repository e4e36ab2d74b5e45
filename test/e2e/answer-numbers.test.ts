// Numbers in real answers, from the service with the simulator and a day of warm-up: no figure
// made by arithmetic is written with more than 10 significant digits (`41.995439999999995`),
// in the pair, deep, screener, signals, CVD, signal history and performance answers, and in
// the history's JSON and CSV and the CSV exports. The venue's prices and sizes have fewer
// digits, and integers (times in ms) are not figures. Arrow keeps the exact doubles.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { eventually, tempDir } from '../helpers/eventually.js';
import { runCli } from '../helpers/cli.js';
import { startServeProcess, type ServiceProcess } from '../helpers/service-process.js';

const numbers = suite('numbers in answers');
let service: ServiceProcess;
let key = '';

/** Number tokens of a JSON text (outside strings) with more than `max` significant digits. */
function longNumbers(json: string, max = 10): string[] {
  const found: string[] = [];
  // Strings first (times, ids), so only the number tokens remain.
  const bare = json.replace(/"(?:[^"\\]|\\.)*"/g, '""');
  for (const token of bare.match(/-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?/g) ?? []) {
    const [mantissa] = token.replace('-', '').split(/[eE]/);
    if (!mantissa!.includes('.') && !/[eE]/.test(token)) continue; // an integer
    const digits = mantissa!.replace('.', '').replace(/^0+/, '');
    if (digits.length > max) found.push(token);
  }
  return found;
}

numbers.before(async () => {
  const dataDir = join(await tempDir(), 'data');
  mkdirSync(dataDir);
  key = JSON.parse(await runCli(['keys', 'create', '--plan', 'Whale', '--json',
    '--data-dir', dataDir])).key as string;
  service = await startServeProcess(['--data-dir', dataDir, '--shards', '1', '--limits', 'off'],
    { ORDERFLOW_WARMUP_HOURS: '24' });
  await eventually(async () => (await fetch(`${service.baseUrl}/readyz`)).status === 200,
    { timeoutMs: 120_000, intervalMs: 250, message: 'ready after the warm-up' });
});

numbers.after(async () => {
  service?.child.kill('SIGTERM');
  await service?.exited;
});

/**
 * The answer once it holds figures: outcomes are evaluated every 5 s after start, and the track
 * record answers 503 until it is computed.
 */
async function answer(path: string, holds: RegExp = /./): Promise<string> {
  return eventually(async () => {
    const response = await fetch(`${service.baseUrl}/api/v1/${path}`,
      { headers: { authorization: `Bearer ${key}` } });
    const text = response.status === 200 ? await response.text() : '';
    return holds.test(text) ? text : null;
  }, { timeoutMs: 90_000, intervalMs: 500, message: `200 from ${path} matching ${holds}` });
}

numbers('the scan finds long figures and passes prices, sizes, times and counts', () => {
  assert.equal(longNumbers('{"a":41.995439999999995,"b":0.000041685000000000005,"c":61223.6,' +
    '"d":1795438800000,"e":"0.12345678901234","f":[1.5e-7,-2.0000000000000004e-9]}'),
  ['41.995439999999995', '0.000041685000000000005', '-2.0000000000000004e-9']);
});

const ANSWERS: readonly [string, RegExp?][] = [['pair/BTC'], ['deep-view/BTC'], ['screener'],
  ['signals'], ['cvd/BTC'], ['signals/history?limit=1000', /"move_pct":-?\d+\.\d/],
  ['signals/performance?window=all&groupBy=grade', /"avgMovePct":-?\d+\.\d/],
  ['funding-arb'], ['smart-money'], ['liquidation-map/BTC'],
  ['history/BTC?interval=1m&limit=2000&metrics=candle,openInterest,fundingRate,' +
    'fundingAnnualized,cvd,vpin,obi,ofi,kyleLambda,signalScore', /"cvd":-?\d+\.\d/],
  ['history/ETH?interval=1h&limit=48&metrics=candle,openInterest,fundingAnnualized,cvd,vpin',
    /"cvd":-?\d/],
  ['history/BTC?interval=5m&limit=2000&format=csv&metrics=candle,openInterest,' +
    'fundingAnnualized,cvd,vpin,obi,ofi,kyleLambda', /\r\n\d{4}-.*\r\n\d{4}-/],
  ['signals/performance?window=all&groupBy=grade&format=csv', /\r\n\S+,\d/],
  ['export/screener.csv', /\r\n\S+,/], ['export/signals.csv', /\r\n\S+,/],
  ['export/funding-arb.csv', /\r\n\S+,/]];

for (const [path, holds] of ANSWERS) {
  numbers(`${path}: no figure with more than 10 significant digits`, async () => {
    const text = await answer(path, holds);
    assert.ok(text.length > 100, `${path} answered ${text.slice(0, 100)}`);
    const long = longNumbers(text);
    assert.equal(long.slice(0, 5), [], `${long.length} long numbers in ${path}`);
  });
}

numbers.run();
