// The real service on the live feed against a fake venue that sends no activeAssetCtx by itself:
// each backfilled pair starts from its context in the metaAndAssetCtxs answer the universe feed
// fetched, so BTC's VPIN is a number at /readyz from the candles alone, and a context the venue
// sends late (after the fill) keeps it a number instead of restarting its buckets.
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { resolveConfig } from '../../core/config.js';
import { silentLogger } from '../../core/logger.js';
import { startService, type Service } from '../../bin/service.js';
import { eventually, tempDir } from '../helpers/eventually.js';
import { binPath } from '../helpers/service-process.js';
import { startFakeVenue, type FakeVenue } from '../feed/fake-venue.js';

const context = suite<{ service?: Service; venue?: FakeVenue; key: string }>(
  'backfill from the universe context');

context.before.each(async (ctx) => {
  const dataDir = join(await tempDir(), 'data');
  mkdirSync(dataDir);
  const made = spawnSync(process.execPath,
    [binPath, 'keys', 'create', '--plan', 'Whale', '--json', '--data-dir', dataDir],
    { encoding: 'utf8' });
  assert.is(made.status, 0, made.stderr);
  ctx.key = JSON.parse(made.stdout).key as string;
  ctx.venue = await startFakeVenue({ frameIntervalMs: 20, shiftToNow: true,
    contextDelayMs: Infinity });
  const config = resolveConfig({
    port: 0, dataDir, shards: 1, logLevel: 'silent', limitsEnabled: false, feed: 'live',
    homeWsUrl: ctx.venue.wsUrl, homeInfoUrl: ctx.venue.infoUrl, backfillHours: 30,
    backfillWaitS: 4,
  });
  ctx.service = await startService(config, { logger: silentLogger });
});

context.after.each(async (ctx) => {
  await ctx.service?.stop();
  await ctx.venue?.close();
});

type Pair = Record<string, unknown>;

async function pair(ctx: { service?: Service; key: string }, symbol: string): Promise<Pair> {
  const response = await fetch(`${ctx.service!.baseUrl}/api/v1/pair/${symbol}`,
    { headers: { authorization: `Bearer ${ctx.key}` } });
  assert.is(response.status, 200);
  return await response.json() as Pair;
}

async function ready(service: Service): Promise<void> {
  await eventually(async () => (await fetch(`${service.baseUrl}/readyz`)).status === 200,
    { timeoutMs: 60_000, intervalMs: 100, message: '/readyz 200' });
}

/** BTC's mark in the recorded metaAndAssetCtxs: the pair's price once a ctx event came. */
const btcContextMark = 66_344;

context('no context from the venue: BTC has VPIN at /readyz', async (ctx) => {
  await ready(ctx.service!);
  const btc = await pair(ctx, 'BTC');
  assert.ok(btc.basis === 'candles' || btc.basis === 'mixed', String(btc.basis));
  assert.type(btc.vpin, 'number', `BTC vpin ${String(btc.vpin)}`);
  assert.is(ctx.venue!.contextsSent(), 0);
});

context('a context after the fill keeps the buckets the candles filled', async (ctx) => {
  // Filled: its candles are in (the venue sent no context yet).
  const filled = async () => ['candles', 'mixed'].includes(String((await pair(ctx, 'BTC')).basis));
  await eventually(filled,
    { timeoutMs: 60_000, intervalMs: 100, message: 'BTC filled from candles' });
  ctx.venue!.sendContexts();
  await ready(ctx.service!);
  // The context is folded in: its mark is the pair's price (the trades' is ~105,000).
  const btc = await eventually(async () => {
    const answer = await pair(ctx, 'BTC');
    return answer.price === btcContextMark ? answer : null;
  }, { timeoutMs: 20_000, intervalMs: 100, message: 'the late context folded in' });
  assert.type(btc.vpin, 'number', `BTC vpin ${String(btc.vpin)}`);
});

context.run();
