// How a saved alert's options read in the Alerts list (web/src/alert-form.ts): the API's flat
// snake_case fields as words, numbers grouped, times in the pages' UTC form, a cooldown as the
// form takes it, and none when there is no cooldown.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { describeAlertOptions } from '../../web/src/alert-form.js';

test('a price alert without cooldown', () => {
  assert.is(describeAlertOptions({ cooldown_ms: 0, level: 65_000, direction: 'above' }),
    'level 65,000 · direction above');
});

test('a drawing alert: times in UTC, prices grouped, the cooldown in hours and minutes', () => {
  assert.is(describeAlertOptions({ cooldown_ms: 5_400_000, direction: 'any',
    point1_time: '2026-11-25T10:00:00.000Z', point1_price: 64_000.5,
    point2_time: '2026-11-25T14:00:00.000Z', point2_price: 65_000 }),
  'direction any · point1 time 2026-11-25 10:00:00 UTC · point1 price 64,000.5 · ' +
    'point2 time 2026-11-25 14:00:00 UTC · point2 price 65,000 · cooldown 1h 30m');
});

test('entry signals: lists and grades as given; seconds', () => {
  assert.is(describeAlertOptions({ cooldown_ms: 90_000, symbols: 'BTC,ETH', timeframes: '5m,1h',
    min_grade: 'A' }), 'symbols BTC,ETH · timeframes 5m,1h · min grade A · cooldown 1m 30s');
});

test.run();
