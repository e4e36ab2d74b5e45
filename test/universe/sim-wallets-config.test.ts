// ORDERFLOW_SIM_WALLETS: the simulator's tracked-wallet count, validated like every config field,
// and carried into the sim FeedSpec that the universe feed and the shards are built from.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ConfigError, defaultConfig, resolveConfig } from '../../core/config.js';
import { feedSpecOf } from '../../actors/runtime/market-feeds.js';
import { serveOverride } from '../../bin/serve-config.js';

test('default 300; 10,000 accepted; the count travels in the sim FeedSpec', () => {
  assert.is(defaultConfig.simWallets, 300);
  const config = resolveConfig(serveOverride({}, { ORDERFLOW_SIM_WALLETS: '10000' }));
  assert.is(config.simWallets, 10_000);
  const spec = feedSpecOf(config, 0);
  assert.ok(spec.kind === 'sim' && spec.walletsTracked === 10_000);
});

test('out of range or not a whole number: refused, naming the field and what was found', () => {
  for (const bad of [0, 10_001, 2.5, Number.NaN]) {
    assert.throws(() => resolveConfig({ simWallets: bad }),
      (e: Error) => e instanceof ConfigError && /simWallets must be an integer from 1 to 10000/
        .test(e.message));
  }
  assert.throws(() => serveOverride({}, { ORDERFLOW_SIM_WALLETS: 'many' }),
    /ORDERFLOW_SIM_WALLETS must be a whole number \(was 'many'\)/);
});

test.run();
