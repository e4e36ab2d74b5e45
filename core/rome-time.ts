// Calendar days in Europe/Rome through Intl: the day key of an instant and the next midnight,
// daylight saving included (a Rome day lasts 23, 24 or 25 hours).

export const QUOTA_TIME_ZONE = 'Europe/Rome';

const parts = new Intl.DateTimeFormat('en-US', {
  timeZone: QUOTA_TIME_ZONE, hourCycle: 'h23',
  year: 'numeric', month: '2-digit', day: '2-digit',
  hour: '2-digit', minute: '2-digit', second: '2-digit',
});

interface WallTime { year: number; month: number; day: number; hour: number; minute: number;
  second: number }

function wallTime(ms: number): WallTime {
  const out: Record<string, number> = {};
  for (const part of parts.formatToParts(ms)) {
    if (part.type !== 'literal') out[part.type] = Number(part.value);
  }
  return out as unknown as WallTime;
}

/** Rome's offset from UTC at an instant, in ms (+1 h in winter, +2 h in summer). */
function offsetMs(ms: number): number {
  const w = wallTime(ms);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return asUtc - Math.floor(ms / 1000) * 1000;
}

/** The instant at which Rome's wall clock reads 00:00 on the given day (month 1..12). */
export function romeMidnightMs(year: number, month: number, day: number): number {
  const wallAsUtc = Date.UTC(year, month - 1, day);
  // Midnight never falls in a DST gap in Rome (changes are at 02:00/03:00), so two rounds of
  // "subtract the offset in force there" converge.
  const guess = wallAsUtc - offsetMs(wallAsUtc);
  return wallAsUtc - offsetMs(guess);
}

export interface RomeDay {
  /** `YYYY-MM-DD` of the Rome calendar day. */
  readonly key: string;
  readonly startMs: number;
  /** Next Rome midnight: when the daily counters reset. */
  readonly endMs: number;
}

function pad(n: number): string {
  return n < 10 ? '0' + n : String(n);
}

/** The Rome calendar day that contains an instant. */
export function romeDay(ms: number): RomeDay {
  const w = wallTime(ms);
  const startMs = romeMidnightMs(w.year, w.month, w.day);
  // Date.UTC rolls day 32 into the next month, so "day + 1" is safe at month ends.
  const next = new Date(Date.UTC(w.year, w.month - 1, w.day + 1));
  const endMs = romeMidnightMs(next.getUTCFullYear(), next.getUTCMonth() + 1, next.getUTCDate());
  return { key: `${w.year}-${pad(w.month)}-${pad(w.day)}`, startMs, endMs };
}

/** romeDay with a one-entry memo: requests within the same day cost a comparison. */
export function createRomeDayCache(): (ms: number) => RomeDay {
  let current: RomeDay | undefined;
  return (ms) => {
    if (current === undefined || ms < current.startMs || ms >= current.endMs) {
      current = romeDay(ms);
    }
    return current;
  };
}

/** The Rome calendar day of an instant, `YYYY-MM-DD`: the key of the daily usage counters. */
export function romeDayKey(ms: number): string {
  return romeDay(ms).key;
}

/**
 * The instant of 00:00 Europe/Rome on a calendar date written `YYYY-MM-DD`, or null when the text
 * is not a real calendar date (subscription starts on the command line).
 */
export function parseRomeDate(text: string): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const check = new Date(Date.UTC(year, month - 1, day));
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 ||
    check.getUTCDate() !== day) return null;
  return romeMidnightMs(year, month, day);
}
