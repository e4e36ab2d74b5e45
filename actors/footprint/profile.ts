// The volume profile answer (docs/footprint.md, "API"): footprint records of a run of bars summed
// into one profile (kernels/volume-profile.ts) with its point of control and value area, and
// the previous days' naked points of control (kernels/volume-sessions.ts) as of its end.
import { createFootprintBar, type FootprintBar } from '../../kernels/footprint-bar.js';
import {
  addFootprintToProfile, createValueArea, createVolumeProfile, valueArea, type VolumeProfile,
} from '../../kernels/volume-profile.js';
import { addSessionBar, createVolumeSessions } from '../../kernels/volume-sessions.js';
import { roundSignificant } from '../../core/json-numbers.js';
import type { FootprintBasisName, FootprintRecord } from '../../core/footprint.js';

export type ProfileSession = 'today' | 'yesterday' | 'range';

export interface ProfileAsk {
  readonly symbol: string;
  readonly session: ProfileSession;
  /** The profile's bars: startMs <= openMs < endMs. */
  readonly startMs: number;
  readonly endMs: number;
}

/** Level slots of one stored bar, at most (the kernel's levelsMax bound is far below). */
const barLevelsMax = 65_536;

const round = (x: number): number | null => (Number.isFinite(x) ? roundSignificant(x) : null);

/** Copies a record into the caller-owned kernel bar. */
function barOf(r: FootprintRecord, out: FootprintBar): FootprintBar {
  out.openMs = r.openMs;
  out.tickSize = r.tickSize;
  out.levelTicks = r.levelTicks;
  out.firstLevel = r.firstLevel;
  out.levels = Math.min(r.buy.length, out.buy.length);
  for (let i = 0; i < out.levels; i++) {
    out.buy[i] = r.buy[i];
    out.sell[i] = r.sell[i];
  }
  out.high = r.high ?? NaN;
  out.low = r.low ?? NaN;
  out.basis = r.basis;
  return out;
}

function basisOf(records: readonly FootprintRecord[]): FootprintBasisName {
  const trades = records.some((r) => r.basis !== 'candles');
  const candles = records.some((r) => r.basis !== 'trades');
  return trades && candles ? 'mixed' : candles ? 'candles' : 'trades';
}

function levelsJson(p: VolumeProfile): Record<string, unknown>[] {
  const size = p.levelTicks * p.tickSize;
  const out = [];
  for (let i = 0; i < p.levels; i++) {
    out.push({ price: round((p.firstLevel + i) * size), buy: round(p.buy[i]),
      sell: round(p.sell[i]), volume: round(p.buy[i] + p.sell[i]) });
  }
  return out;
}

/**
 * The answer from `history` (5m or 1h records in time order, starting days before the profile
 * for the naked points of control) up to ask.endMs.
 */
export function volumeProfileJson(ask: ProfileAsk, history: readonly FootprintRecord[]):
  Record<string, unknown> {
  let levelsMax = 1;
  for (const r of history) levelsMax = Math.max(levelsMax, r.buy.length);
  const bar = createFootprintBar(Math.min(levelsMax, barLevelsMax));
  const sessions = createVolumeSessions();
  const profile = createVolumeProfile();
  const inside: FootprintRecord[] = [];
  for (const r of history) {
    if (r.openMs >= ask.endMs) break;
    barOf(r, bar);
    addSessionBar(sessions, bar);
    if (r.openMs < ask.startMs) continue;
    addFootprintToProfile(profile, bar);
    inside.push(r);
  }
  const area = valueArea(profile, createValueArea());
  const size = profile.levelTicks * profile.tickSize;
  const nakedPocs = [];
  for (let k = 0; k < sessions.nakedCount; k++) {
    // A day inside a range is the range's own: only days before its start are "previous".
    if (sessions.nakedDayMs[k] >= ask.startMs) continue;
    nakedPocs.push({ price: round(sessions.nakedLow[k]),
      sessionStart: new Date(sessions.nakedDayMs[k]).toISOString() });
  }
  return {
    symbol: ask.symbol, session: ask.session, start: new Date(ask.startMs).toISOString(),
    end: new Date(ask.endMs).toISOString(), levelSize: size > 0 ? round(size) : null,
    pocPrice: area.pocIndex < 0 ? null : round((profile.firstLevel + area.pocIndex) * size),
    valueAreaHigh: area.highIndex < 0 ? null
      : round((profile.firstLevel + area.highIndex + 1) * size),
    valueAreaLow: area.lowIndex < 0 ? null : round((profile.firstLevel + area.lowIndex) * size),
    volume: round(area.totalVolume), levels: levelsJson(profile), nakedPocs,
    basis: basisOf(inside),
  };
}
