// The front's propagation histogram: observations land in the bucket whose bound is the first at
// or above them, the exposition is a cumulative Prometheus histogram in seconds, and a delay read
// below zero (a clock a little ahead) counts as none.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  PropagationHistogram, propagationBucketsMs,
} from '../../scale-out/propagation-histogram.js';

function series(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    out.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return out;
}

test('buckets are cumulative, in seconds; sum and count; negative delays count as 0', () => {
  const histogram = new PropagationHistogram();
  for (const ms of [0.2, 0.5, 0.7, 3, 5, 5.01, 9999, -2]) histogram.observe(ms);
  assert.is(histogram.observed, 8);
  const text = histogram.render();
  assert.match(text, '# TYPE orderflow_snapshot_propagation_seconds histogram');
  const s = series(text);
  const bucket = (le: string) => s.get(`orderflow_snapshot_propagation_seconds_bucket{le="${le}"}`);
  assert.is(bucket('0.0005'), 3, '0.2, 0.5 and the negative one');
  assert.is(bucket('0.001'), 4);
  assert.is(bucket('0.003'), 5);
  assert.is(bucket('0.005'), 6, 'a bound is inclusive');
  assert.is(bucket('0.006'), 7);
  assert.is(bucket('2.5'), 7);
  assert.is(bucket('+Inf'), 8);
  assert.is(s.get('orderflow_snapshot_propagation_seconds_count'), 8);
  assert.ok(Math.abs(s.get('orderflow_snapshot_propagation_seconds_sum')! -
    (0.2 + 0.5 + 0.7 + 3 + 5 + 5.01 + 9999) / 1000) < 1e-9);
  // Every bound is exposed, in increasing order.
  const bounds = [...s.keys()].filter((k) => k.includes('_bucket')).length;
  assert.is(bounds, propagationBucketsMs.length + 1);
});

test.run();
