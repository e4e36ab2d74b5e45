// Configuration is validated field by field with messages that name the field; the logger writes
// JSON lines and never writes a credential.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ConfigError, defaultConfig, resolveConfig } from '../../core/config.js';
import { createLogger } from '../../core/logger.js';
import { serveOverride } from '../../bin/serve-config.js';
import { feedSpecOf } from '../../actors/runtime/market-feeds.js';

test('defaults resolve, are frozen, and serve on 127.0.0.1:8080 from ./data with the simulator',
  () => {
    const config = resolveConfig();
    assert.ok(Object.isFrozen(config));
    assert.is(config.host, '127.0.0.1');
    assert.is(config.port, 8080);
    assert.is(config.dataDir, './data');
    assert.is(config.feed, 'sim');
    assert.is(defaultConfig.limitsEnabled, true);
  });

const bad: [Partial<Record<string, unknown>>, RegExp][] = [
  [{ port: 70_000 }, /config\.port must be an integer from 0 to 65535 \(was 70000\)/],
  [{ port: 1.5 }, /config\.port/],
  [{ feed: 'replay' }, /config\.replayFile must be a file for replay \(was null\)/],
  [{ speed: 0 }, /config\.speed must be a positive number or max \(was 0\)/],
  [{ homeWsUrl: 'http://x' }, /config\.homeWsUrl must be a ws:\/\/ or wss:\/\/ URL/],
  [{ shards: 0 }, /config\.shards must be 1 to 16 \(was 0\)/],
  [{ limitsEnabled: false, host: '0.0.0.0' }, /limitsEnabled must be on unless host is loopback/],
  [{ logLevel: 'loud' }, /config\.logLevel/],
];

for (const [override, message] of bad) {
  test(`refuses ${JSON.stringify(override)} naming the field`, () => {
    try {
      resolveConfig(override as never);
      assert.unreachable('should refuse');
    } catch (error) {
      assert.instance(error, ConfigError);
      assert.match((error as Error).message, message);
    }
  });
}

test('--limits off is accepted on loopback hosts only', () => {
  assert.is(resolveConfig({ limitsEnabled: false, host: '127.0.0.1' }).limitsEnabled, false);
  assert.is(resolveConfig({ limitsEnabled: false, host: '::1' }).limitsEnabled, false);
});

test('flags win over environment variables', () => {
  const override = serveOverride({ port: '9000' },
    { ORDERFLOW_PORT: '8000', ORDERFLOW_HOST: '127.0.0.2', ORDERFLOW_FEED: 'replay:/tmp/x' });
  assert.is(override.port, 9000);
  assert.is(override.host, '127.0.0.2');
  assert.is(override.feed, 'replay');
  assert.is(override.replayFile, '/tmp/x');
});

test('history retention: days from the environment, checked against each other', () => {
  const override = serveOverride({}, { ORDERFLOW_HISTORY_MINUTE_DAYS: '3',
    ORDERFLOW_HISTORY_HOUR_DAYS: '90' });
  const config = resolveConfig(override);
  assert.equal([config.historyMinuteDays, config.historyHourDays], [3, 90]);
  assert.equal([defaultConfig.historyMinuteDays, defaultConfig.historyHourDays], [7, 180]);
  assert.throws(() => resolveConfig({ historyMinuteDays: 7, historyHourDays: 3 }),
    /historyHourDays/);
  assert.throws(() => resolveConfig({ historyMinuteDays: 0 }), /historyMinuteDays/);
  assert.throws(() => serveOverride({}, { ORDERFLOW_HISTORY_HOUR_DAYS: 'x' }),
    /ORDERFLOW_HISTORY_HOUR_DAYS/);
});

test('footprint retention: days per timeframe from the environment, each checked', () => {
  const config = resolveConfig(serveOverride({}, { ORDERFLOW_FOOTPRINT_5M_DAYS: '3',
    ORDERFLOW_FOOTPRINT_15M_DAYS: '9', ORDERFLOW_FOOTPRINT_1H_DAYS: '60' }));
  assert.equal([config.footprint5mDays, config.footprint15mDays, config.footprint1hDays],
    [3, 9, 60]);
  assert.equal([defaultConfig.footprint5mDays, defaultConfig.footprint15mDays,
    defaultConfig.footprint1hDays], [7, 14, 30]);
  assert.throws(() => resolveConfig({ footprint5mDays: 0 }), /footprint5mDays must be an integer/);
  assert.throws(() => resolveConfig({ footprint1hDays: 4_000 }), /footprint1hDays/);
  assert.throws(() => serveOverride({}, { ORDERFLOW_FOOTPRINT_15M_DAYS: 'x' }),
    /ORDERFLOW_FOOTPRINT_15M_DAYS/);
});

test('live backfill: hours, wait and retries from the environment, checked; the spec has them',
  () => {
    const config = resolveConfig({ ...serveOverride({}, { ORDERFLOW_BACKFILL_HOURS: '24',
      ORDERFLOW_BACKFILL_WAIT_S: '120', ORDERFLOW_BACKFILL_RETRY_S: '1, 0.5,60' }),
    feed: 'live' });
    assert.equal([config.backfillHours, config.backfillWaitS], [24, 120]);
    assert.equal(config.backfillRetryS, [1, 0.5, 60]);
    assert.equal([defaultConfig.backfillHours, defaultConfig.backfillWaitS], [83, 30]);
    assert.equal(defaultConfig.backfillRetryS, [2, 10, 30]);
    assert.equal(feedSpecOf(config, 0), { kind: 'live', wsUrl: config.homeWsUrl,
      infoUrl: config.homeInfoUrl, backfill: { lookbackMs: 86_400_000, waitMs: 120_000,
        retryDelaysMs: [1_000, 500, 60_000] } });
    assert.equal(serveOverride({}, { ORDERFLOW_BACKFILL_RETRY_S: '' }).backfillRetryS, []);
    assert.throws(() => serveOverride({}, { ORDERFLOW_BACKFILL_RETRY_S: '2;10' }),
      /ORDERFLOW_BACKFILL_RETRY_S must be pauses in seconds/);
    assert.throws(() => resolveConfig({ backfillRetryS: [700] }), /backfillRetryS/);
    assert.throws(() => serveOverride({}, { ORDERFLOW_BACKFILL_WAIT_S: '1.5' }),
      /ORDERFLOW_BACKFILL_WAIT_S/);
    assert.throws(() => serveOverride({}, { ORDERFLOW_BACKFILL_HOURS: '-1' }),
      /ORDERFLOW_BACKFILL_HOURS/);
    assert.throws(() => resolveConfig({ backfillHours: 400 }), /backfillHours/);
    assert.throws(() => resolveConfig({ backfillWaitS: 4_000 }), /backfillWaitS/);
  });

test('the logger writes JSON lines and redacts credentials', () => {
  const lines: string[] = [];
  const log = createLogger({ level: 'info', json: true, write: (l) => lines.push(l) });
  log.debug('hidden');
  log.info('key created', { keyPrefix: 'ofk_12345678', key: 'ofk_' + 'a'.repeat(32),
    secret: 'whsec_x', authorization: 'Bearer y' });
  log.child({ component: 'http' }).warn('slow');
  assert.is(lines.length, 2);
  const first = JSON.parse(lines[0]);
  assert.is(first.level, 'info');
  assert.is(first.keyPrefix, 'ofk_12345678');
  for (const field of ['key', 'secret', 'authorization']) assert.is(first[field], '[redacted]');
  assert.not.match(lines[0], /aaaa|whsec_x|Bearer y/);
  assert.is(JSON.parse(lines[1]).component, 'http');
});

test.run();
