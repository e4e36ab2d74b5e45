// get_history and get_signal_performance through the MCP SDK's client over a real lmdb history
// store: the REST answers as tool results, paging by cursor, and the same plan gates (Pro, and
// Pro's 30 days back).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { rm } from 'node:fs/promises';
import { ManualClock } from '../../core/clock.js';
import type { HistoryPoint } from '../../core/history-point.js';
import type { Plan } from '../../core/messages.js';
import { openHistoryStore } from '../../persistence/history.js';
import { openSignalStore } from '../../persistence/signals.js';
import { openStore } from '../../persistence/store.js';
import type { EntrySignal } from '../../actors/signals/types.js';
import { createMcpData } from '../../http/mcp-data.js';
import { seededStore } from '../http/helpers/seed.js';
import { tempDir } from '../helpers/eventually.js';
import { testKey } from './mcp-fixtures.js';
import { call, connect, startServer, textOf } from './mcp-helpers.js';

const T0 = Date.parse('2026-11-20T00:00:00.000Z');

const point = (i: number): HistoryPoint => ({
  symbol: 'BTC', tMs: T0 + i * 60_000, open: 100 + i, high: 101 + i, low: 99 + i, close: 100.5 + i,
  volume: 1e6, openInterest: 2e8, fundingRate: 0.00001, fundingAnnualized: 8.76, cvd: i,
  vpin: 0.4, obi: 0.1, ofi: 0.2, kyleLambda: 1e-6, signalScore: 12, regime: 'ranging',
});

test('get_history pages the recorded points; both tools are gated like REST', async () => {
  const dir = await tempDir();
  const clock = new ManualClock(T0 + 10 * 60_000);
  const store = await openStore({ dataDir: dir, clock, watchKeys: false });
  const history = openHistoryStore(store.root);
  history.add(Array.from({ length: 10 }, (_, i) => point(i)));
  await history.flush();
  const data = createMcpData(seededStore(), { store: history, clock,
    signals: openSignalStore<EntrySignal>(store.root) });
  const server = await startServer({ data });
  const plans: Plan[] = ['Trader', 'Pro', 'Whale'];
  const keys = plans.map((plan, i) => {
    const key = testKey(100 + i);
    server.access.addKey(key, plan);
    return key;
  });
  const clients = await Promise.all(keys.map((key) => connect(server, '/api/mcp', key)));
  try {
    const [trader, pro, whale] = clients.map((c) => c.client);
    const first = await call(pro, 'get_history', { symbol: 'btc', interval: '1m', limit: 4,
      metrics: ['candle', 'cvd'], start: new Date(T0).toISOString() });
    assert.not.ok(first.isError, textOf(first));
    const page = first.structuredContent as { points: { t: string; cvd: number }[];
      nextCursor: string | null; symbol: string };
    assert.is(page.symbol, 'BTC');
    assert.equal(page.points.map((p) => p.cvd), [0, 1, 2, 3]);
    assert.match(textOf(first), /4 points of btc at 1m \(more: pass nextCursor\)/);
    const second = await call(pro, 'get_history', { symbol: 'BTC', interval: '1m', limit: 4,
      metrics: ['candle', 'cvd'], cursor: page.nextCursor });
    assert.equal((second.structuredContent as { points: { cvd: number }[] }).points
      .map((p) => p.cvd), [4, 5, 6, 7]);

    const early = new Date(T0 - 40 * 86_400_000).toISOString();
    const refused = await call(pro, 'get_history', { symbol: 'BTC', start: early });
    assert.ok(refused.isError);
    assert.match(textOf(refused), /"requiredPlan":"Whale"/);
    const whaleEarly = await call(whale, 'get_history', { symbol: 'BTC', start: early,
      interval: '1d' });
    assert.not.ok(whaleEarly.isError, textOf(whaleEarly));
    const belowPro = await call(trader, 'get_history', { symbol: 'BTC' });
    assert.match(textOf(belowPro), /"requiredPlan":"Pro"/);
    const badCursor = await call(pro, 'get_history', { symbol: 'BTC', cursor: 'nope' });
    assert.ok(badCursor.isError);
    assert.match(textOf(badCursor), /cursor must be/);
    const invalid = await call(pro, 'get_history', { symbol: 'BTC', interval: '2m' });
    assert.match(textOf(invalid), /Input validation error/);

    const perf = await call(pro, 'get_signal_performance', { window: '7d', groupBy: 'regime' });
    assert.not.ok(perf.isError, textOf(perf));
    assert.equal((perf.structuredContent as { groups: unknown[]; groupBy: string }).groups, []);
    assert.match(textOf(perf), /0 groups by regime over 7d/);
    // The statistics blocks come along (empty here: no signal stored).
    const blocks = perf.structuredContent as Record<string, Record<string, unknown>>;
    assert.equal(blocks.informationCoefficient, { n: 0, rho: null, low: null, high: null });
    assert.is(blocks.calibration.lettersInOrder, null);
    assert.is(blocks.multipleComparisons.groupsCompared, 0);
    assert.match(textOf(perf), /groups compared: 0, expected false positives at 95 %: 0/);
    assert.match(textOf(await call(trader, 'get_signal_performance')), /"requiredPlan":"Pro"/);
  } finally {
    for (const { client } of clients) await client.close();
    await server.close();
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
});

test.run();
