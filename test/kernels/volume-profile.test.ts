// Volume profile: value area by hand, coarsening and merging of footprint levels, the sessions
// of UTC days and their naked points of control.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createFootprintBar, type FootprintBar } from '../../kernels/footprint-bar.js';
import {
  addFootprintToProfile, createValueArea, createVolumeProfile, valueArea,
} from '../../kernels/volume-profile.js';
import { addSessionBar, createVolumeSessions } from '../../kernels/volume-sessions.js';

const DAY = 86_400_000;
const T0 = Date.UTC(2024, 7, 8);

/** A bar of given total volumes (all buys) from `firstLevel` up, levels of `levelTicks`. */
function bar(firstLevel: number, volumes: number[], levelTicks = 1, openMs = T0): FootprintBar {
  const b = createFootprintBar(64);
  b.tickSize = 1;
  b.levelTicks = levelTicks;
  b.firstLevel = firstLevel;
  b.levels = volumes.length;
  b.openMs = openMs;
  volumes.forEach((v, i) => {
    b.buy[i] = v;
  });
  b.low = firstLevel * levelTicks;
  b.high = (firstLevel + volumes.length) * levelTicks - 0.5;
  return b;
}

test('value area by hand: the larger neighbour joins, one level at a time, until 70 %', () => {
  // Levels 100..108, total 100: the point of control is 104 (25).
  const p = createVolumeProfile(64);
  addFootprintToProfile(p, bar(100, [2, 3, 8, 12, 25, 10, 6, 20, 14]));
  const area = valueArea(p, createValueArea());
  assert.is(p.firstLevel + area.pocIndex, 104);
  // Above 10, below 12: 103 joins (37). Above 10, below 8: 105 (47). Above 6, below 8: 102
  // (55). Above 6, below 3: 106 (61). Above 20, below 3: 107 (81 >= 70): 102..107.
  assert.is(p.firstLevel + area.lowIndex, 102);
  assert.is(p.firstLevel + area.highIndex, 107);
  assert.is(area.volume, 81);
  assert.is(area.totalVolume, 100);
  // At 40 %: 25, then 103 (37), then 105 (47 covers 40).
  valueArea(p, area, 0.4);
  assert.equal([area.lowIndex + 100, area.highIndex + 100, area.volume], [103, 105, 47]);
});

test('a tie adds both neighbours; an exhausted side offers nothing', () => {
  const p = createVolumeProfile(64);
  addFootprintToProfile(p, bar(0, [1, 3, 10, 3, 2]));
  const area = valueArea(p, createValueArea());
  // Above 3, below 3: both join at once (16 covers 13.3).
  assert.equal([area.lowIndex, area.highIndex, area.volume], [1, 3, 16]);
  const top = createVolumeProfile(64);
  addFootprintToProfile(top, bar(0, [5, 5, 5, 30]));
  // Only the lower side is left: its level joins (30 + 5 = 35 covers 31.5).
  assert.equal([valueArea(top, area).lowIndex, area.highIndex, area.volume], [2, 3, 35]);
});

test('coarser bars coarsen the profile; a span past levelsMax coarsens it by two', () => {
  const p = createVolumeProfile(16);
  addFootprintToProfile(p, bar(10, [1, 2, 3, 4]));
  addFootprintToProfile(p, bar(6, [10], 2));
  assert.is(p.levelTicks, 2);
  // Ticks 10-11 and 12-13 of the first bar become levels 5 and 6; the second bar is level 6.
  assert.equal([p.firstLevel, p.levels, p.buy[0], p.buy[1]], [5, 2, 3, 17]);
  // Levels 5..40 of 2 ticks span 36 > 16: by 4 ticks 2..20 (19), by 8 ticks 1..10 (10).
  addFootprintToProfile(p, bar(40, [6], 2));
  assert.equal([p.levelTicks, p.firstLevel, p.levels, p.buy[0], p.buy[9]], [8, 1, 10, 20, 6]);
});

test('sessions: today, yesterday and naked points of control', () => {
  const s = createVolumeSessions(64, 4);
  addSessionBar(s, bar(100, [1, 9, 1], 1, T0));
  addSessionBar(s, bar(200, [1, 20, 1], 1, T0 + DAY));
  // Day 0's point of control (level 101) is naked; day 1 has not traded there.
  assert.is(s.nakedCount, 1);
  assert.equal([s.nakedLow[0], s.nakedHigh[0], s.nakedDayMs[0]], [101, 102, T0]);
  assert.is(s.yesterday.firstLevel + valueArea(s.yesterday, createValueArea()).pocIndex, 101);
  addSessionBar(s, bar(150, [5], 1, T0 + 2 * DAY));
  // Day 2 rolled day 1's (201) in; a bar reaching 101 tests day 0's away.
  assert.equal([...s.nakedLow.subarray(0, s.nakedCount)], [101, 201]);
  addSessionBar(s, bar(95, [1, 1, 1, 1, 1, 1, 1], 1, T0 + 2 * DAY + 300_000));
  assert.equal([...s.nakedLow.subarray(0, s.nakedCount)], [201]);
  // A day apart leaves no yesterday.
  addSessionBar(s, bar(150, [5], 1, T0 + 4 * DAY));
  assert.is(s.yesterday.levels, 0);
});

test.run();
