// deploy/grafana/: the dashboard against Grafana's dashboard model (its shape is checked by the
// typecheck, see test/helpers/grafana-dashboard.ts; enum values, ids and layout here), and the
// provisioning and compose files that load it. Whether each panel's query finds series on a real
// scrape is checked by test/e2e/prometheus.test.ts.
import { readFileSync } from 'node:fs';
import { DashboardCursorSync, FieldColorModeId, ThresholdsMode } from '@grafana/schema';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { dashboard, dashboardQueries, dataPanels, isRow } from '../helpers/grafana-dashboard.js';

const deploy = new URL('../../deploy/', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, deploy), 'utf8');
const grafana = suite('grafana dashboard');

grafana('uses only values of Grafana\'s enums', () => {
  assert.ok(Object.values(DashboardCursorSync).includes(dashboard.graphTooltip!));
  for (const panel of dataPanels()) {
    const { thresholds, color } = panel.fieldConfig?.defaults ?? {};
    if (thresholds !== undefined) {
      assert.ok(Object.values(ThresholdsMode).includes(thresholds.mode), panel.title);
      assert.is(thresholds.steps[0]?.value, null, `${panel.title}: the base step has no value`);
    }
    if (color !== undefined) assert.ok(Object.values(FieldColorModeId).includes(color.mode));
  }
});

grafana('has the rows, unique ids and panels inside 24 columns that do not overlap', () => {
  const panels = dashboard.panels ?? [];
  assert.equal(panels.filter(isRow).map((row) => row.title), ['Overview', 'Feed and shards',
    'Views freshness', 'Webhooks outbox', 'Redis (scale-out)', 'Store and process',
    'Signals and history']);
  const ids = panels.map((p) => p.id);
  assert.is(new Set(ids).size, ids.length, 'panel ids are unique');
  const taken = new Set<string>();
  for (const panel of panels) {
    const { x, y, w, h } = panel.gridPos!;
    assert.ok(x >= 0 && w > 0 && x + w <= 24 && h > 0, `${panel.title} fits 24 columns`);
    for (let row = y; row < y + h; row++) {
      for (let column = x; column < x + w; column++) {
        assert.not.ok(taken.has(`${row}:${column}`), `${panel.title} overlaps another panel`);
        taken.add(`${row}:${column}`);
      }
    }
  }
});

grafana('queries the provisioned Prometheus from every panel, each with PromQL', () => {
  const uid = /uid: (\S+)/.exec(read('grafana/provisioning/datasources/orderflow.yml'))?.[1];
  assert.ok(uid);
  for (const panel of dataPanels()) {
    assert.is(panel.datasource?.uid, uid, panel.title);
    assert.ok((panel.targets ?? []).length > 0, `${panel.title} has a query`);
    for (const target of panel.targets!) assert.equal(target.datasource, panel.datasource);
  }
  const queries = dashboardQueries();
  assert.ok(queries.every((q) => /orderflow_|^up\{/.test(q.expr)), 'every query reads a series');
});

grafana('is loaded by the provisioning and compose files', () => {
  const provider = read('grafana/provisioning/dashboards/orderflow.yml');
  const folder = /path: (\S+)/.exec(provider)?.[1];
  const compose = read('compose.yml');
  assert.ok(compose.includes(`./grafana/orderflow.json:${folder}/orderflow.json`), compose);
  assert.ok(compose.includes('./grafana/provisioning:/etc/grafana/provisioning'));
  assert.ok(compose.includes(
    './prometheus/orderflow.rules.yml:/etc/prometheus/orderflow.rules.yml'));
  assert.match(compose, /ORDERFLOW_METRICS_PUBLIC: '1'/);
  assert.match(read('prometheus/prometheus.yml'), /job_name: orderflow/);
});

grafana.run();
