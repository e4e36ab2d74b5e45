// Rome calendar days across daylight saving, and subscription-start dates.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseRomeDate, romeDayKey } from '../../core/rome-time.js';

test('romeDayKey follows Rome, not UTC, on both sides of daylight saving', () => {
  assert.is(romeDayKey(Date.parse('2026-03-28T23:30:00Z')), '2026-03-29'); // 00:30 CET
  assert.is(romeDayKey(Date.parse('2026-03-28T22:59:59Z')), '2026-03-28');
  assert.is(romeDayKey(Date.parse('2026-07-01T21:59:59Z')), '2026-07-01'); // 23:59:59 CEST
  assert.is(romeDayKey(Date.parse('2026-07-01T22:00:00Z')), '2026-07-02');
  assert.is(romeDayKey(Date.parse('2026-12-31T23:00:00Z')), '2027-01-01');
});

test('parseRomeDate gives 00:00 Rome, summer and winter, and on change days', () => {
  assert.is(parseRomeDate('2026-09-08'), Date.parse('2026-09-07T22:00:00Z'));
  assert.is(parseRomeDate('2026-11-07'), Date.parse('2026-11-06T23:00:00Z'));
  assert.is(parseRomeDate('2026-03-29'), Date.parse('2026-03-28T23:00:00Z'));
  assert.is(parseRomeDate('2026-03-30'), Date.parse('2026-03-29T22:00:00Z'));
  assert.is(parseRomeDate('2026-10-25'), Date.parse('2026-10-24T22:00:00Z'));
  assert.is(parseRomeDate('2026-10-26'), Date.parse('2026-10-25T23:00:00Z'));
  assert.is(parseRomeDate('2028-02-29'), Date.parse('2028-02-28T23:00:00Z'));
});

test('parseRomeDate refuses what is not a calendar date', () => {
  for (const text of ['2026-02-30', '2027-02-29', '2026-13-01', '2026-00-10', '2026-1-05',
    '20260105', '', '2026-01-05T00:00', ' 2026-01-05', 'tomorrow']) {
    assert.is(parseRomeDate(text), null, text);
  }
});

test.run();
