// Trading sessions of builder markets: NYSE hours, daylight saving, holidays, early closes.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  barSessionOpen, createSessionCalendars, isSessionOpen, localTime,
} from '../../actors/signals/sessions.js';

const at = (iso: string) => Date.parse(iso);

test('crypto pairs have no session', () => {
  assert.is(isSessionOpen('BTC', at('2026-03-10T15:00:00Z')), null);
  assert.is(isSessionOpen('kPEPE', at('2026-03-14T15:00:00Z')), null);
});

test('equities dex: open 09:30 inclusive to 16:00 exclusive, New York time with DST', () => {
  // 2026-03-10 is a Tuesday after the switch to EDT (UTC-4) on March 8.
  assert.is(isSessionOpen('xyz:TSLA', at('2026-03-10T13:29:59Z')), false);
  assert.is(isSessionOpen('xyz:TSLA', at('2026-03-10T13:30:00Z')), true);
  assert.is(isSessionOpen('xyz:TSLA', at('2026-03-10T19:59:59Z')), true);
  assert.is(isSessionOpen('xyz:TSLA', at('2026-03-10T20:00:00Z')), false);
  // 2026-03-06, a Friday before the switch: EST (UTC-5).
  assert.is(isSessionOpen('xyz:TSLA', at('2026-03-06T14:00:00Z')), false);
  assert.is(isSessionOpen('xyz:TSLA', at('2026-03-06T14:30:00Z')), true);
  assert.is(isSessionOpen('flx:TSLA', at('2026-03-06T14:30:00Z')), true);
});

test('weekends, holidays and early closes are closed', () => {
  assert.is(isSessionOpen('xyz:NVDA', at('2026-03-14T15:00:00Z')), false, 'Saturday');
  assert.is(isSessionOpen('xyz:NVDA', at('2026-04-03T15:00:00Z')), false, 'Good Friday 2026');
  assert.is(isSessionOpen('xyz:NVDA', at('2027-07-05T15:00:00Z')), false, 'July 4th observed');
  assert.is(isSessionOpen('xyz:NVDA', at('2026-11-27T17:59:00Z')), true, '12:59 EST');
  assert.is(isSessionOpen('xyz:NVDA', at('2026-11-27T18:00:00Z')), false, '13:00 early close');
  assert.is(isSessionOpen('xyz:NVDA', at('2026-11-30T18:00:00Z')), true, 'a normal Monday');
});

test('calendars are configurable per dex and per symbol; unknown dexes trade always', () => {
  assert.is(isSessionOpen('hyna:FOO', at('2026-03-14T03:00:00Z')), true);
  const calendars = createSessionCalendars({
    dexes: { xyz: 'nyse', hyna: 'nyse' }, symbols: { 'xyz:GOLD': 'always' },
  });
  assert.is(calendars.isSessionOpen('hyna:FOO', at('2026-03-14T03:00:00Z')), false);
  assert.is(calendars.isSessionOpen('xyz:GOLD', at('2026-03-14T03:00:00Z')), true);
  assert.is(calendars.isSessionOpen('BTC', at('2026-03-14T03:00:00Z')), null);
  const utc = createSessionCalendars({ defaultBuilder: { timeZone: 'UTC', openMinute: 60,
    closeMinute: 120, weekdays: [1, 2, 3, 4, 5, 6, 7], holidays: [], earlyCloses: {} } });
  assert.is(utc.isSessionOpen('abc:X', at('2026-03-14T01:30:00Z')), true);
  assert.is(utc.isSessionOpen('abc:X', at('2026-03-14T02:00:00Z')), false);
});

test('a bar lies outside only when neither end is in the session', () => {
  const calendars = createSessionCalendars();
  const hour = 3_600_000;
  // 09:00-10:00 New York: its last minute is in session.
  assert.is(barSessionOpen(calendars, 'xyz:TSLA', at('2026-03-10T13:00:00Z'), hour), true);
  assert.is(barSessionOpen(calendars, 'xyz:TSLA', at('2026-03-10T12:00:00Z'), hour), false);
  assert.is(barSessionOpen(calendars, 'xyz:TSLA', at('2026-03-10T19:30:00Z'), hour), true);
  assert.is(barSessionOpen(calendars, 'BTC', at('2026-03-10T12:00:00Z'), hour), null);
});

test('localTime gives the local date, ISO weekday and minute', () => {
  assert.equal(localTime(at('2026-03-10T13:30:00Z'), 'America/New_York'),
    { date: '2026-03-10', weekday: 2, minute: 570 });
  assert.equal(localTime(at('2026-03-10T03:00:00Z'), 'America/New_York'),
    { date: '2026-03-09', weekday: 1, minute: 23 * 60 });
});

test.run();
