// `--informed` / ORDERFLOW_SIM_INFORMED: the simulator's informed share, validated like every
// config field and carried in the sim FeedSpec into the world every thread builds.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ConfigError, defaultConfig, resolveConfig } from '../../core/config.js';
import { feedSpecOf } from '../../actors/runtime/market-feeds.js';
import { INFORMED_SHARE_DEFAULT } from '../../core/config.js';
import { simWorld } from '../../actors/feed/sim/sim-world.js';
import { serveOverride } from '../../bin/serve-config.js';

test('default the informed world; 0 and 1 accepted; the share travels in the sim FeedSpec', () => {
  assert.is(defaultConfig.simInformedShare, INFORMED_SHARE_DEFAULT);
  assert.ok(INFORMED_SHARE_DEFAULT > 0);
  for (const [text, share] of [['0', 0], ['1', 1], ['0.35', 0.35], ['.5', 0.5]] as const) {
    const config = resolveConfig(serveOverride({ informed: text }, {}));
    assert.is(config.simInformedShare, share);
    const spec = feedSpecOf(config, 0);
    assert.ok(spec.kind === 'sim' && spec.informedShare === share);
  }
  const fromEnv = resolveConfig(serveOverride({}, { ORDERFLOW_SIM_INFORMED: '0' }));
  assert.is(fromEnv.simInformedShare, 0);
  const flagWins = resolveConfig(serveOverride({ informed: '1' }, { ORDERFLOW_SIM_INFORMED: '0' }));
  assert.is(flagWins.simInformedShare, 1);
});

test('the world of a share: every market carries it; worlds of two shares differ', () => {
  const nullWorld = simWorld(7, undefined, 0);
  assert.ok(nullWorld.markets.every((m) => m.informedShare === 0));
  assert.ok(simWorld(7).markets.every((m) => m.informedShare === INFORMED_SHARE_DEFAULT));
  assert.is.not(simWorld(7, undefined, 0), simWorld(7));
});

test('out of range or not a number: refused, naming the flag or field and what was found', () => {
  for (const bad of ['1.5', '-0.2', 'half', '', '0.5x']) {
    assert.throws(() => serveOverride({ informed: bad }, {}),
      (e: Error) => /--informed must be a share from 0 to 1/.test(e.message), bad);
  }
  for (const bad of [-0.1, 1.01, Number.NaN]) {
    assert.throws(() => resolveConfig({ simInformedShare: bad }),
      (e: Error) => e instanceof ConfigError &&
        /simInformedShare must be a number from 0 to 1/.test(e.message));
  }
  assert.throws(() => simWorld(7, undefined, 2), /informedShare must be from 0 to 1/);
});

test.run();
