// Trading sessions of builder-deployed markets (`<dex>:<ticker>`): a configurable calendar per
// dex (and per symbol). Crypto pairs on the main dex have no session (null).

/** A weekly session in a time zone, with holidays and early closes (local dates). */
export interface SessionCalendar {
  readonly timeZone: string;
  /** Minutes after local midnight: open inclusive, close exclusive. */
  readonly openMinute: number;
  readonly closeMinute: number;
  /** ISO weekdays the market opens, 1 = Monday .. 7 = Sunday. */
  readonly weekdays: readonly number[];
  /** Local dates `YYYY-MM-DD` with no session. */
  readonly holidays: readonly string[];
  /** Local dates with an earlier close, minutes after midnight. */
  readonly earlyCloses: Readonly<Record<string, number>>;
}

/**
 * NYSE regular hours 09:30-16:00 America/New_York with the exchange's published holidays and
 * 13:00 early closes for 2026 and 2027. Outside those years only weekends are known closed.
 */
export const NYSE_CALENDAR: SessionCalendar = Object.freeze({
  timeZone: 'America/New_York',
  openMinute: 9 * 60 + 30,
  closeMinute: 16 * 60,
  weekdays: Object.freeze([1, 2, 3, 4, 5]),
  holidays: Object.freeze([
    '2026-01-01', '2026-01-19', '2026-02-16', '2026-04-03', '2026-05-25', '2026-06-19',
    '2026-07-03', '2026-09-07', '2026-11-26', '2026-12-25',
    '2027-01-01', '2027-01-18', '2027-02-15', '2027-03-26', '2027-05-31', '2027-06-18',
    '2027-07-05', '2027-09-06', '2027-11-25', '2027-12-24',
  ]),
  earlyCloses: Object.freeze({ '2026-11-27': 780, '2026-12-24': 780, '2027-11-26': 780 }),
});

/** 'always' means the market trades around the clock (no session marking). */
export type CalendarRef = 'always' | 'nyse' | SessionCalendar;

export interface SessionConfig {
  /** Calendar per builder dex name (the part before ':'). */
  readonly dexes: Readonly<Record<string, CalendarRef>>;
  /** Per-symbol overrides, e.g. a commodity on an equities dex. */
  readonly symbols: Readonly<Record<string, CalendarRef>>;
  /** Calendar of a builder dex not listed in `dexes`. */
  readonly defaultBuilder: CalendarRef;
}

export const defaultSessionConfig: SessionConfig = Object.freeze({
  // The equity dexes of the home venue; the others list crypto-like or pre-IPO markets.
  dexes: Object.freeze({ xyz: 'nyse', flx: 'nyse' }),
  symbols: Object.freeze({}),
  defaultBuilder: 'always',
});

export interface SessionCalendars {
  /** true/false for builder markets, null for crypto (main dex, no session). */
  isSessionOpen(symbol: string, tsMs: number): boolean | null;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone, hourCycle: 'h23', weekday: 'short', year: 'numeric', month: '2-digit',
      day: '2-digit', hour: '2-digit', minute: '2-digit',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

const WEEKDAYS: Record<string, number> = { Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6, Sun: 7 };

/** localTime answers by zone and UTC minute (what it resolves to), newest few thousand. */
const localTimes = new Map<string, LocalTime>();
const localTimesMax = 4_096;

interface LocalTime {
  readonly date: string;
  readonly weekday: number;
  readonly minute: number;
}

/**
 * The local date, ISO weekday and minute of the day of an instant in a time zone (DST
 * included). Remembered per zone and minute: every closed
 * bar of a builder market asks (a warm-up closes thousands), and formatToParts cost ~10 us.
 */
export function localTime(tsMs: number, timeZone: string): LocalTime {
  const key = `${timeZone} ${Math.floor(tsMs / 60_000)}`;
  const known = localTimes.get(key);
  if (known !== undefined) return known;
  const parts: Record<string, string> = {};
  for (const part of formatterOf(timeZone).formatToParts(tsMs)) parts[part.type] = part.value;
  const local = {
    date: `${parts.year}-${parts.month}-${parts.day}`,
    weekday: WEEKDAYS[parts.weekday] ?? 0,
    minute: Number(parts.hour) * 60 + Number(parts.minute),
  };
  if (localTimes.size >= localTimesMax) localTimes.clear();
  localTimes.set(key, local);
  return local;
}

export function isCalendarOpen(calendar: SessionCalendar, tsMs: number): boolean {
  const local = localTime(tsMs, calendar.timeZone);
  if (!calendar.weekdays.includes(local.weekday)) return false;
  if (calendar.holidays.includes(local.date)) return false;
  const close = calendar.earlyCloses[local.date] ?? calendar.closeMinute;
  return local.minute >= calendar.openMinute && local.minute < close;
}

function resolveRef(ref: CalendarRef): SessionCalendar | null {
  if (ref === 'always') return null;
  if (ref === 'nyse') return NYSE_CALENDAR;
  return ref;
}

export function createSessionCalendars(override: Partial<SessionConfig> = {}): SessionCalendars {
  const config = { ...defaultSessionConfig, ...override };
  return {
    isSessionOpen(symbol: string, tsMs: number): boolean | null {
      const colon = symbol.indexOf(':');
      if (colon < 0) return null;
      const ref = config.symbols[symbol] ?? config.dexes[symbol.slice(0, colon)] ??
        config.defaultBuilder;
      const calendar = resolveRef(ref);
      return calendar === null ? true : isCalendarOpen(calendar, tsMs);
    },
  };
}

const defaultCalendars = createSessionCalendars();

/** With the default calendars: null for crypto, else whether the session is open. */
export function isSessionOpen(symbol: string, tsMs: number): boolean | null {
  return defaultCalendars.isSessionOpen(symbol, tsMs);
}

/**
 * The `sessionOpen` the detector takes for a bar: a bar lies outside the session when neither
 * its first nor its last millisecond is in it (sessions are longer than the 1h bars, so a bar
 * overlapping a session always has one end in it). null for crypto.
 */
export function barSessionOpen(calendars: SessionCalendars, symbol: string, openMs: number,
  timeframeMs: number): boolean | null {
  const atOpen = calendars.isSessionOpen(symbol, openMs);
  if (atOpen !== false) return atOpen;
  return calendars.isSessionOpen(symbol, openMs + timeframeMs - 1);
}
