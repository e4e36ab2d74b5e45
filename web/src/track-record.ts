// The Signals page's track record rows: grades best first, and a group none of whose signals
// has been evaluated yet (outcomes come 4 h after a signal) shows no rate rather than 0 %.
import { num } from './format.js';

export interface TrackGroup {
  group?: string; key?: string; count: number; evaluated?: number;
  hitRate?: number | null; expectancyR?: number | null;
}

const GRADE_ORDER = ['A+', 'A', 'B', 'C', 'D'];

/** Best grade first (the API lists groups in text order: A before A+); others after. */
export function byGrade<T extends TrackGroup>(groups: readonly T[]): T[] {
  const rank = (g: TrackGroup) => {
    const i = GRADE_ORDER.indexOf(String(g.group ?? g.key));
    return i < 0 ? GRADE_ORDER.length : i;
  };
  return [...groups].sort((a, b) => rank(a) - rank(b));
}

export function hitRate(g: TrackGroup): string {
  return g.hitRate === null || g.hitRate === undefined ? '—' : `${(g.hitRate * 100).toFixed(1)} %`;
}

export function expectancy(g: TrackGroup): string {
  return g.expectancyR === null || g.expectancyR === undefined ? '—'
    : `${num(g.expectancyR, 2)} R`;
}
