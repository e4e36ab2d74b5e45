// The UTC-day volume profiles of a pair (today and yesterday) from its closed 5m footprint
// bars, and the previous days' naked points of control: a day's point of control that no later
// bar has traded through yet (a bar tests a level when its low..high range reaches into it).
import { checkOption } from './check.js';
import type { FootprintBar } from './footprint-bar.js';
import { DAY_MS } from './timeframes.js';
import {
  addFootprintToProfile, clearVolumeProfile, copyVolumeProfile, createValueArea,
  createVolumeProfile, valueArea, type ValueArea, type VolumeProfile,
} from './volume-profile.js';

export interface VolumeSessions {
  readonly today: VolumeProfile;
  readonly yesterday: VolumeProfile;
  /** UTC midnight of today's profile; -Infinity before the first bar. */
  todayStartMs: number;
  /** Naked points of control, oldest first: their level's prices and the day they formed. */
  readonly nakedLow: Float64Array;
  readonly nakedHigh: Float64Array;
  readonly nakedDayMs: Float64Array;
  nakedCount: number;
  readonly scratchArea: ValueArea;
}

export function createVolumeSessions(levelsMax = 4096, nakedMax = 30): VolumeSessions {
  checkOption('nakedMax', nakedMax, 1, 10_000, true);
  return {
    today: createVolumeProfile(levelsMax), yesterday: createVolumeProfile(levelsMax),
    todayStartMs: -Infinity, nakedLow: new Float64Array(nakedMax),
    nakedHigh: new Float64Array(nakedMax), nakedDayMs: new Float64Array(nakedMax),
    nakedCount: 0, scratchArea: createValueArea(),
  };
}

export function resetVolumeSessions(s: VolumeSessions): void {
  clearVolumeProfile(s.today);
  clearVolumeProfile(s.yesterday);
  s.todayStartMs = -Infinity;
  s.nakedCount = 0;
}

/** Appends today's point of control to the naked list (dropping the oldest when full). */
function pushNaked(s: VolumeSessions): void {
  const poc = valueArea(s.today, s.scratchArea).pocIndex;
  if (poc < 0) return;
  if (s.nakedCount === s.nakedLow.length) {
    s.nakedLow.copyWithin(0, 1);
    s.nakedHigh.copyWithin(0, 1);
    s.nakedDayMs.copyWithin(0, 1);
    s.nakedCount -= 1;
  }
  const size = s.today.levelTicks * s.today.tickSize;
  s.nakedLow[s.nakedCount] = (s.today.firstLevel + poc) * size;
  s.nakedHigh[s.nakedCount] = (s.today.firstLevel + poc + 1) * size;
  s.nakedDayMs[s.nakedCount] = s.todayStartMs;
  s.nakedCount += 1;
}

/** Starts the day of `dayStartMs`: today becomes yesterday (or nothing, after a day apart). */
function rollDay(s: VolumeSessions, dayStartMs: number): void {
  if (s.todayStartMs > -Infinity) pushNaked(s);
  if (dayStartMs - s.todayStartMs === DAY_MS) copyVolumeProfile(s.today, s.yesterday);
  else clearVolumeProfile(s.yesterday);
  clearVolumeProfile(s.today);
  s.todayStartMs = dayStartMs;
}

/** Drops the naked points of control that the range low .. high trades through. */
function testNaked(s: VolumeSessions, low: number, high: number): void {
  let kept = 0;
  for (let k = 0; k < s.nakedCount; k++) {
    if (low < s.nakedHigh[k] && high >= s.nakedLow[k]) continue;
    s.nakedLow[kept] = s.nakedLow[k];
    s.nakedHigh[kept] = s.nakedHigh[k];
    s.nakedDayMs[kept] = s.nakedDayMs[k];
    kept += 1;
  }
  s.nakedCount = kept;
}

/** One closed 5m footprint bar (bars come in time order; candle bars test, add nothing). */
export function addSessionBar(s: VolumeSessions, bar: FootprintBar): void {
  const dayStartMs = Math.floor(bar.openMs / DAY_MS) * DAY_MS;
  if (dayStartMs < s.todayStartMs) {
    checkOption('bar openMs', bar.openMs, s.todayStartMs, Infinity);
  }
  if (dayStartMs > s.todayStartMs) rollDay(s, dayStartMs);
  if (bar.high >= bar.low) testNaked(s, bar.low, bar.high);
  addFootprintToProfile(s.today, bar);
}
