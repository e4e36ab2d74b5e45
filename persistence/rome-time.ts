// Europe/Rome calendar days: the daily quota's day key and subscription starts (DECISIONS.md).

const romeParts = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Europe/Rome', year: 'numeric', month: '2-digit', day: '2-digit',
  hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23',
});

function wallClockMs(instantMs: number): number {
  const parts: Record<string, number> = {};
  for (const p of romeParts.formatToParts(instantMs)) {
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  }
  return Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second);
}

/** The Rome calendar day of an instant, `YYYY-MM-DD`. */
export function romeDayKey(instantMs: number): string {
  return new Date(wallClockMs(instantMs)).toISOString().slice(0, 10);
}

/**
 * The instant (epoch ms) of 00:00 Europe/Rome on a calendar date, `YYYY-MM-DD`, or null when the
 * text is not a real calendar date. Rome changes offset at 02:00/03:00, never at midnight.
 */
export function romeMidnightMs(dateText: string): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(dateText);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const wallMs = Date.UTC(year, month - 1, day);
  const check = new Date(wallMs);
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 ||
    check.getUTCDate() !== day) return null;
  // Two passes: the offset is taken at the guessed instant, then at the corrected one.
  let instantMs = wallMs - (wallClockMs(wallMs) - wallMs);
  instantMs = wallMs - (wallClockMs(instantMs) - instantMs);
  return instantMs;
}
