// The metrics with the real parts: Debian's Prometheus and promtool against the service on the
// live feed (the fake venue). promtool accepts a live scrape and the rule files; a Prometheus
// server scraping the service finds a series for every metric the rules read; and once the
// venue stops, the feed-down rule fires (the test's copy of the rules waits seconds, not 1m).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { resolveConfig } from '../../core/config.js';
import { silentLogger } from '../../core/logger.js';
import { startService, type Service } from '../../bin/service.js';
import { eventually, tempDir } from '../helpers/eventually.js';
import { dashboardQueries } from '../helpers/grafana-dashboard.js';
import { ensurePrometheus, promtool, startPrometheus, type PrometheusServer }
  from '../helpers/prometheus.js';
import { startFakeVenue, type FakeVenue } from '../feed/fake-venue.js';

const rulesDir = new URL('../../deploy/prometheus/', import.meta.url).pathname;
const rulesFile = join(rulesDir, 'orderflow.rules.yml');

/** Metrics the rules and dashboard read that only a scale-out role has (tested elsewhere). */
const scaleOutOnly = ['orderflow_redis_up', 'orderflow_snapshot_propagation_seconds'];

const metrics = suite('prometheus');
let venue: FakeVenue | undefined;
let service: Service | undefined;
let prometheus: PrometheusServer | undefined;
let dir = '';

metrics.before(async () => {
  ensurePrometheus();
  dir = await tempDir();
  mkdirSync(join(dir, 'data'));
  venue = await startFakeVenue({ frameIntervalMs: 20, shiftToNow: true });
  service = await startService(resolveConfig({
    port: 0, dataDir: join(dir, 'data'), shards: 2, logLevel: 'silent', limitsEnabled: false,
    feed: 'live', homeWsUrl: venue.wsUrl, homeInfoUrl: venue.infoUrl, backfillHours: 1,
    backfillWaitS: 2,
  }), { logger: silentLogger });
});

metrics.after(async () => {
  await prometheus?.stop();
  await service?.stop();
  await venue?.close();
});

metrics('promtool accepts a live scrape, the rules, their tests, the compose config', async () => {
  // Once some pair has published, so every family of series is in the scrape.
  const scrape = await eventually(async () => {
    const text = await (await fetch(`${service!.baseUrl}/metrics`)).text();
    return /^orderflow_feed_newest_data_age_seconds \d/m.test(text) ? text : undefined;
  }, { timeoutMs: 30_000, message: 'a pair view was published' });
  const checked = promtool(['check', 'metrics'], scrape);
  assert.is(checked.status, 0, checked.output);
  const rules = promtool(['check', 'rules', rulesFile]);
  assert.is(rules.status, 0, rules.output);
  const tested = promtool(['test', 'rules', join(rulesDir, 'orderflow.rules.test.yml')]);
  assert.is(tested.status, 0, tested.output);
  // deploy/compose.yml's Prometheus configuration (its rule path exists in the container only).
  const config = promtool(['check', 'config', '--syntax-only', join(rulesDir, 'prometheus.yml')]);
  assert.is(config.status, 0, config.output);
});

metrics('a real Prometheus finds a series for every metric the rules read', async () => {
  // The feed-down rule of the copy fires after seconds without data instead of a minute.
  const rules = readFileSync(rulesFile, 'utf8')
    .replace('orderflow_feed_newest_data_age_seconds > 30\n        for: 1m',
      'orderflow_feed_newest_data_age_seconds > 3\n        for: 0s');
  assert.ok(rules.includes('> 3\n        for: 0s'), 'the feed-down rule was shortened');
  const copy = join(dir, 'rules.yml');
  writeFileSync(copy, rules);
  prometheus = await startPrometheus([new URL(service!.baseUrl).host], copy);
  const names = [...new Set(readFileSync(rulesFile, 'utf8').match(/orderflow_[a-z0-9_]+/g))]
    .filter((name) => !scaleOutOnly.includes(name));
  assert.ok(names.length >= 8, names.join(' '));
  for (const name of names) {
    await eventually(async () => (await prometheus!.query(name)).length > 0,
      { timeoutMs: 30_000, message: `a series of ${name}` });
  }
});

metrics('every query of the Grafana dashboard finds a series', async () => {
  const queries = dashboardQueries()
    .filter((q) => !scaleOutOnly.some((name) => q.expr.includes(name)));
  assert.ok(queries.length >= 20, `${queries.length} queries`);
  for (const { title, expr } of queries) {
    await eventually(async () => (await prometheus!.query(expr)).length > 0,
      { timeoutMs: 30_000, message: `a series for ${title}: ${expr}` });
  }
});

metrics('the feed-down rule fires once the venue stops', async () => {
  await venue!.close();
  venue = undefined;
  const firing = await eventually(async () => {
    const alerts = await prometheus!.query('ALERTS{alertname="OrderflowFeedDown"}');
    return alerts.find((a) => a.metric.alertstate === 'firing');
  }, { timeoutMs: 45_000, intervalMs: 250, message: 'OrderflowFeedDown fired' });
  assert.is(firing.metric.severity, 'critical');
});

metrics.run();
