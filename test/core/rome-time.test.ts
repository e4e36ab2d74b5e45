// Rome calendar days: keys, midnights, 23- and 25-hour days, year end.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createRomeDayCache, romeDay, romeMidnightMs } from '../../core/rome-time.js';

const at = (iso: string) => Date.parse(iso);
const isoOf = (ms: number) => new Date(ms).toISOString();

test('winter: Rome is UTC+1, the day ends at 23:00 UTC', () => {
  const day = romeDay(at('2026-11-22T10:00:00Z'));
  assert.is(day.key, '2026-11-22');
  assert.is(isoOf(day.startMs), '2026-11-21T23:00:00.000Z');
  assert.is(isoOf(day.endMs), '2026-11-22T23:00:00.000Z');
});

test('summer: Rome is UTC+2, the day ends at 22:00 UTC', () => {
  const day = romeDay(at('2026-07-01T21:59:59.999Z'));
  assert.is(day.key, '2026-07-01');
  assert.is(isoOf(day.endMs), '2026-07-01T22:00:00.000Z');
  assert.is(romeDay(at('2026-07-01T22:00:00Z')).key, '2026-07-02');
});

test('the spring-forward day lasts 23 hours', () => {
  const day = romeDay(at('2026-03-29T12:00:00Z'));
  assert.is(day.key, '2026-03-29');
  assert.is(isoOf(day.startMs), '2026-03-28T23:00:00.000Z');
  assert.is(isoOf(day.endMs), '2026-03-29T22:00:00.000Z');
  assert.is(day.endMs - day.startMs, 23 * 3_600_000);
});

test('the fall-back day lasts 25 hours', () => {
  const day = romeDay(at('2026-10-25T12:00:00Z'));
  assert.is(day.key, '2026-10-25');
  assert.is(isoOf(day.startMs), '2026-10-24T22:00:00.000Z');
  assert.is(isoOf(day.endMs), '2026-10-25T23:00:00.000Z');
  assert.is(day.endMs - day.startMs, 25 * 3_600_000);
});

test('the last millisecond before a Rome midnight belongs to the old day', () => {
  assert.is(romeDay(at('2026-11-22T22:59:59.999Z')).key, '2026-11-22');
  assert.is(romeDay(at('2026-11-22T23:00:00.000Z')).key, '2026-11-23');
  assert.is.not(romeDay(at('2026-11-22T23:00:00.000Z')).key, '2026-11-22');
});

test('year end rolls into the next year', () => {
  const day = romeDay(at('2026-12-31T23:30:00Z'));
  assert.is(day.key, '2027-01-01');
  assert.is(isoOf(day.endMs), '2027-01-01T23:00:00.000Z');
});

test('romeMidnightMs gives the grandfathering dates of docs/decisions.md', () => {
  assert.is(isoOf(romeMidnightMs(2026, 9, 8)), '2026-09-07T22:00:00.000Z');
  assert.is(isoOf(romeMidnightMs(2026, 11, 7)), '2026-11-06T23:00:00.000Z');
});

test('the day cache answers the same as romeDay across a midnight', () => {
  const cached = createRomeDayCache();
  for (const iso of ['2026-03-28T22:59:59Z', '2026-03-28T23:00:00Z', '2026-03-29T21:59:59Z',
    '2026-03-29T22:00:00Z', '2026-03-28T12:00:00Z']) {
    assert.equal(cached(at(iso)), romeDay(at(iso)), iso);
  }
});

test.run();
