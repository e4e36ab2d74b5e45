// The info client and the live universe feed against the fake venue's recorded answers.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ManualClock, systemClock } from '../../core/clock.js';
import { silentLogger } from '../../core/logger.js';
import type { FundingEvent, UniverseEvent } from '../../core/messages.js';
import { createSharedBudget } from '../../actors/feed/budget.js';
import { createInfoClient } from '../../actors/feed/home/info-client.js';
import { parseMetaAndAssetCtxs } from '../../actors/feed/home/info-mappers.js';
import { createUniverseFeed } from '../../actors/universe/universe-feed.js';
import type { UniverseFeedEvent } from '../../actors/universe/universe-feed.js';
import { eventually } from '../helpers/eventually.js';
import { startFakeVenue } from './fake-venue.js';

test('info client: main and xyz metadata, perpDexs, predictedFundings, raw state', async () => {
  const venue = await startFakeVenue();
  try {
    const info = createInfoClient({ url: venue.infoUrl, budget: createSharedBudget(systemClock),
      clock: systemClock });
    const main = await info.metaAndAssetCtxs('');
    assert.ok(main.ok);
    if (!main.ok) return;
    assert.is(main.value.length, 228);
    assert.is(main.value.filter((m) => m.isDelisted).length, 38);
    const matic = main.value.find((m) => m.symbol === 'MATIC')!;
    assert.equal([matic.ctx.dayNtlVlm, matic.ctx.openInterest, matic.ctx.midPx], [0, 0, null]);
    const xyz = await info.metaAndAssetCtxs('xyz');
    assert.ok(xyz.ok && xyz.value.length === 43 && xyz.value.every((m) =>
      m.symbol.startsWith('xyz:') && m.dex === 'xyz'));
    const dexes = await info.perpDexs();
    assert.equal(dexes.ok && dexes.value, ['xyz', 'flx', 'vntl', 'hyna']);
    const funding = await info.predictedFundings(5);
    assert.ok(funding.ok);
    if (funding.ok) {
      assert.equal(funding.value[0].venues.map((v) => [v.venue, v.intervalHours]),
        [['home', 1], ['exchange_b', 8], ['exchange_c', 4]]);
      assert.is(funding.value[1].venues.length, 1, 'a null venue entry is left out');
    }
    const state = await info.clearinghouseState('0x0');
    assert.ok(state.ok);
    const bad = await info.post({ type: 'nonsense' });
    assert.ok(!bad.ok && /status 422/.test(bad.error));
  } finally {
    await venue.close();
  }
});

test('info client: an exhausted budget is refused as a value, not a hang', async () => {
  const clock = new ManualClock(0);
  const budget = createSharedBudget(clock);
  budget.take('rest', 1_200);
  const info = createInfoClient({ url: 'http://127.0.0.1:1/info', budget, clock, waitingMax: 0 });
  const result = await info.perpDexs();
  assert.ok(!result.ok && /budget/.test(result.error));
  const down = createInfoClient({ url: 'http://127.0.0.1:1/info',
    budget: createSharedBudget(clock), clock });
  const refused = await down.perpDexs();
  assert.ok(!refused.ok && refused.error.startsWith('perpDexs:'));
});

test('mappers refuse malformed answers with the field named', () => {
  assert.match(String(parseMetaAndAssetCtxs({}, '')), /expected \[meta, assetCtxs\]/);
  assert.match(String(parseMetaAndAssetCtxs([{ universe: [{ name: 'A' }] }, []], '')),
    /expected 1 entries \(was 0\)/);
  assert.match(String(parseMetaAndAssetCtxs([{ universe: [{ name: 'A' }] }, [{ markPx: '-1' }]],
    '')), /markPx/);
});

test('live universe feed: main + builder markets, then funding', async () => {
  const venue = await startFakeVenue();
  const events: UniverseFeedEvent[] = [];
  const feed = createUniverseFeed({ kind: 'live', wsUrl: venue.wsUrl, infoUrl: venue.infoUrl },
    { clock: systemClock, logger: silentLogger, cadenceMs: 20 });
  try {
    feed.start((e) => events.push(e));
    await eventually(() => events.some((e) => e.type === 'funding'));
    const universe = events.find((e): e is UniverseEvent => e.type === 'universe')!;
    assert.is(universe.markets.length, 228 + 43);
    assert.ok(universe.markets.some((m) => m.symbol === 'xyz:TSLA'));
    assert.ok(events.some((e): e is FundingEvent => e.type === 'funding' && e.symbol === 'BTC'));
  } finally {
    await feed.stop();
    await venue.close();
  }
});

test.run();
