// The simulator's warm-up through the whole service: real shard workers, real store, real front.
// /readyz waits for it; at ready the pairs' numbers rest on it (bars before the start are in the
// store, CVD history reaches back); alerts and entry signals watched it, and nothing that
// happened inside it was sent to a webhook.
import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { resolveConfig } from '../../core/config.js';
import { TIMEFRAME_MS } from '../../actors/signals/types.js';
import { systemClock } from '../../core/clock.js';
import { silentLogger } from '../../core/logger.js';
import { startService, type Service } from '../../bin/service.js';
import { openBarStore } from '../../persistence/bars.js';
import { openStore } from '../../persistence/store.js';
import { eventually, tempDir } from '../helpers/eventually.js';
import { runCli } from '../helpers/cli.js';

const START_MS = Date.parse('2026-03-02T12:00:00Z');
// The default warm-up: VPIN's level needs 150 buckets (three days at the least, more for a quiet
// pair: 96 h left some without one); builder markets reach back over as much of their sessions.
const WARMUP_HOURS = 168;
const warm = suite('simulator warm-up end to end');
let service: Service | null = null;
let dataDir = '';
let receiver: Server;
const deliveries: { event: string; data: Record<string, unknown> }[] = [];

function cli(...args: string[]): Promise<string> {
  return runCli([...args, '--data-dir', dataDir], { ORDERFLOW_ALLOW_PRIVATE_WEBHOOKS: '1' });
}

async function get(path: string): Promise<{ status: number; body: any }> {
  const response = await fetch(`${service!.baseUrl}${path}`);
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

warm.before(async () => {
  try {
    await setUp();
  } catch (error) {
    // uvu reports a failing hook only as tests not run: say why.
    console.error('warm-up suite set-up failed:', error);
    throw error;
  }
});

async function setUp(): Promise<void> {
  dataDir = join(await tempDir(), 'data');
  mkdirSync(dataDir);
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => { body += chunk.toString(); });
    req.on('end', () => {
      const envelope = JSON.parse(body) as { data: Record<string, unknown> };
      deliveries.push({ event: String(req.headers['x-service-event']), data: envelope.data });
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
  // Alerts registered before the service starts, so they watch the whole warm-up: a screener
  // alert that holds at every evaluation (no cooldown: it fires at each), a delta flip on
  // BTC's 5-minute bars, every entry signal.
  const { prefix } = JSON.parse(await cli('keys', 'create', '--plan', 'Whale', '--json'));
  await cli('webhooks', 'add', '--key', prefix, '--url', url, '--json');
  await cli('alerts', 'add', '--key', prefix, '--kind', 'screener', '--symbol', 'BTC', '--field',
    'price', '--above', '1', '--cooldown', '0', '--webhook', url);
  await cli('alerts', 'add', '--key', prefix, '--kind', 'delta_flip', '--symbol', 'BTC',
    '--webhook', url);
  await cli('alerts', 'add', '--key', prefix, '--kind', 'entry_signal', '--min-grade', 'D',
    '--webhook', url);
  service = await startService(resolveConfig({
    port: 0, dataDir, shards: 2, logLevel: 'silent',
    allowPrivateWebhooks: true, clockStartMs: START_MS, warmupHours: WARMUP_HOURS,
    limitsEnabled: false,
  }), { logger: silentLogger });
}

warm.after(async () => {
  await service?.stop();
  receiver?.close();
});

warm('/readyz waits for the warm-up; at ready every tracked pair has its numbers', async () => {
  const ready = await eventually(async () => {
    const r = await get('/readyz');
    // Until the warm-up is done the check says so (and never the reverse); once every pair
    // published, their views may take a few more turns to be applied (the pairs check).
    if (r.status !== 200) {
      const { warmup, shards, pairs } = r.body.checks;
      assert.ok(warmup === false || !shards || !pairs, JSON.stringify(r.body.checks));
    }
    return r.status === 200 ? r : null;
  }, { timeoutMs: 150_000, message: 'ready after the warm-up' });
  assert.is(ready.body.checks.warmup, true);
  const screener = await get('/api/v1/screener');
  const tracked = screener.body.pairs.filter((p: any) => p.tracked);
  assert.is(tracked.length, 100);
  const btc = await get('/api/v1/pair/BTC');
  assert.is(btc.body.basis, 'mixed');
  assert.type(btc.body.signalScore, 'number');
});

warm('at ready ALL tracked pairs have numbers, closed-session builder markets too', async () => {
  // START is a Monday 12:00 UTC: the us-equity builder markets (xyz:, flx:) are closed and
  // have been since Friday; they carry their last session's values.
  const key = JSON.parse(await cli('keys', 'create', '--plan', 'Whale', '--json')).key as string;
  const headers = { authorization: `Bearer ${key}` };
  const screener = await get('/api/v1/screener');
  const tracked: string[] = screener.body.pairs.filter((p: any) => p.tracked)
    .map((p: any) => p.symbol);
  assert.ok(tracked.some((s) => s.startsWith('xyz:')), 'builder markets are tracked');
  // A refused request says so (its status), rather than showing as a pair without numbers.
  const read = async (path: string): Promise<any> => {
    const response = await fetch(`${service!.baseUrl}/api/v1/${path}`, { headers });
    assert.is(response.status, 200, `${path}: ${await response.clone().text()}`);
    return response.json();
  };
  const signals = await read('signals');
  const missing: string[] = [];
  for (const symbol of tracked) {
    const path = encodeURIComponent(symbol);
    const pair = await read(`pair/${path}`);
    const deep = await read(`deep-view/${path}`);
    const signal = signals[symbol] ?? signals.signals?.find((x: any) => x.symbol === symbol);
    const values = { vpin: pair.vpin, vpinLevel: pair.vpinLevel, regime: pair.regime,
      signalScore: pair.signalScore, kyleLambda: deep.kyleLambda, signals: signal };
    for (const [name, value] of Object.entries(values)) {
      if (value === null || value === undefined) missing.push(`${symbol} ${name}`);
    }
  }
  assert.equal(missing, [], `null at ready: ${missing.join(', ')}`);
});

warm('deep view and CVD history reach back into the warm-up', async () => {
  const key = JSON.parse(await cli('keys', 'create', '--plan', 'Whale', '--json')).key as string;
  const headers = { authorization: `Bearer ${key}` };
  const deep = await eventually(async () => {
    const r = await fetch(`${service!.baseUrl}/api/v1/deep-view/BTC`, { headers });
    return r.status === 200 ? await r.json() as any : null;
  }, { timeoutMs: 10_000, message: 'deep view served' });
  assert.type(deep.kyleLambda, 'number');
  assert.is(deep.basis, 'mixed');
  const oldest = Date.parse(deep.cvdHistory[0].time);
  assert.ok(oldest < START_MS - 60 * 60_000, `CVD history from ${deep.cvdHistory[0].time}`);
});

warm('nothing inside the warm-up reached a webhook; its bars are in the store', async () => {
  // The screener alert's condition held from the first evaluation, inside the warm-up: it fired
  // there (its state moved, it stays fired while the condition holds) and sent nothing. Without
  // the warm-up being the past it would reach the receiver at once (as in e2e/service). Alerts
  // reload every second and the outbox polls every 250 ms: give both a few turns.
  await new Promise((resolve) => setTimeout(resolve, 4_000));
  assert.not.ok(deliveries.some((d) => d.data.alert_kind === 'screener'),
    'the screener alert fired inside the warm-up only');
  // A bar alert's time is its bar's close; an entry signal's bar closed after the start.
  for (const { event, data } of deliveries) {
    if (event === 'alert.triggered') {
      assert.ok(Date.parse(String(data.time)) >= START_MS, `alert at ${data.time}`);
    } else if (event === 'entry_signal.created') {
      const closeMs = Date.parse(String(data.bar_time)) + TIMEFRAME_MS[data.timeframe as '5m'];
      assert.ok(closeMs > START_MS, `signal of the bar at ${data.bar_time}`);
    }
  }
  await service!.stop();
  service = null;
  const store = await openStore({ dataDir, clock: systemClock, watchKeys: false });
  try {
    const bars = openBarStore(store.bulk).range('BTC', START_MS - WARMUP_HOURS * 3_600_000,
      START_MS);
    // Two hours of 5-minute bars, each once (the last closes at the first live trade).
    assert.ok(bars.length >= 22, `bars ${bars.length}`);
    assert.is(new Set(bars.map((b) => b.openMs)).size, bars.length);
  } finally {
    await store.close();
  }
});

warm.run();
