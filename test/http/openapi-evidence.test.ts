// The OpenAPI document describes the evidence-grade fields: entry_signal.created requires them
// with their allowed values, and the signal history accepts signals stored before them.
import { Ajv2020 } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { buildOpenApiDocument } from '../../http/openapi/document.js';
import { applyEvidence } from '../../actors/signals/evidence-grader.js';
import { longSignal, T0 } from '../signals/evidence-fixtures.js';

const addFormats = formats as unknown as typeof formats.default;
const doc = buildOpenApiDocument() as any;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
const entrySchema = doc.webhooks.entrySignalCreated.post.requestBody.content['application/json']
  .schema.properties.data;
const historyItem = doc.components.schemas.SignalHistory.properties.signals.items;
const validEntry = ajv.compile(entrySchema);
const validHistory = ajv.compile(historyItem);

const graded = { ...applyEvidence(longSignal(T0), { n: 42, expectancy_r: 0.2, lower_r: 0.06 }),
  chart_url: 'https://charts.example/c' };

test('entry_signal.created: a graded signal validates, with its evidence fields', () => {
  assert.is(graded.grade_basis, 'evidence');
  assert.ok(validEntry(graded), ajv.errorsText(validEntry.errors));
  const rules = { ...applyEvidence(longSignal(T0), { n: 0, expectancy_r: null, lower_r: null }),
    chart_url: 'https://charts.example/c' };
  assert.ok(validEntry(rules), ajv.errorsText(validEntry.errors));
});

test('entry_signal.created: the fields are required and their values checked', () => {
  for (const name of ['grade_basis', 'grade_evidence', 'grade_rules']) {
    const { [name]: _dropped, ...without } = graded as Record<string, unknown>;
    assert.not.ok(validEntry(without), `${name} is required`);
  }
  for (const bad of [{ grade_basis: 'model' }, { grade_rules: 'E' },
    { grade_evidence: { n: 1.5, expectancy_r: 0, lower_r: 0 } },
    { grade_evidence: { n: 3, expectancy_r: 'high', lower_r: null } },
    { grade_evidence: { n: 3, expectancy_r: 0.1 } }]) {
    assert.not.ok(validEntry({ ...graded, ...bad }), JSON.stringify(bad));
  }
});

test('signal history: a signal stored before evidence grades still validates', () => {
  const { chart_url: _url, ...stored } = graded;
  const item = { ...stored, signaled_at: new Date(T0 + 300_000).toISOString(), outcome: null };
  assert.ok(validHistory(item), ajv.errorsText(validHistory.errors));
  const old = { ...longSignal(T0), signaled_at: item.signaled_at, outcome: null };
  assert.ok(validHistory(old), ajv.errorsText(validHistory.errors));
  assert.not.ok(validHistory({ ...item, grade_basis: 'model' }));
});

test.run();
