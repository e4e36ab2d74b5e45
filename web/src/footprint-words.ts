// The footprint in words: the focused bar's summary (shown under the chart and read by screen
// readers) and what marks each level carries in the bar's table.
import { timeLabels, timeMs, volumeText, type FootprintBar } from './footprint-layout.js';

/** Stacks named in the sentence; the table marks every one on its levels. */
const STACKS_LISTED = 3;

export const CANDLES_NOTE = 'no trades in this bar (built from candles)';

/** `HH:MM UTC` of a bar's open, with the date when asked. */
export function barTime(bar: FootprintBar, withDay = false): string {
  const iso = new Date(timeMs(bar.openTime)).toISOString();
  return `${withDay ? `${iso.slice(0, 10)} ` : ''}${timeLabels([timeMs(bar.openTime)])[0].clock}` +
    ' UTC';
}

function signed(value: number): string {
  return `${value > 0 ? '+' : ''}${volumeText(value)}`;
}

/** One sentence about a bar: its time, volume, delta, point of control and stacks. */
export function barSummary(bar: FootprintBar, price: (p: number | null) => string): string {
  const head = `Bar ${barTime(bar, true)}${bar.closed ? '' : ' (open)'}`;
  if (bar.basis === 'candles') {
    return `${head}: ${CANDLES_NOTE}; high ${price(bar.high)}, low ${price(bar.low)}.`;
  }
  const listed = bar.stackedImbalances.slice(0, STACKS_LISTED).map((s) => `stacked ${s.side} ` +
    `imbalance ${price(s.fromPrice)} to ${price(s.toPrice)} (${s.levels} levels)`);
  const more = bar.stackedImbalances.length - listed.length;
  const stacks = listed.length === 0 ? 'no stacked imbalance'
    : `${listed.join(', ')}${more > 0 ? ` and ${more} more (in the table)` : ''}`;
  const parts = [`volume ${volumeText(bar.volume)}`, `delta ${signed(bar.delta)}`,
    `point of control ${price(bar.pocPrice)}`, stacks];
  if (bar.clippedVolume > 0) {
    parts.push(`${volumeText(bar.clippedVolume)} traded beyond the edge levels`);
  }
  if (bar.basis === 'mixed') parts.push('part of the bar was built from candles: the ' +
    'footprint holds its trades only');
  return `${head}: ${parts.join('; ')}.`;
}

/** The marks of a level in its bar: point of control, inside a buy or sell stack. */
export function levelMarks(bar: FootprintBar, levelPrice: number, levelSize: number): string {
  const air = levelSize * 1e-6;
  const marks: string[] = [];
  if (bar.pocPrice !== null && Math.abs(bar.pocPrice - levelPrice) < air) {
    marks.push('point of control');
  }
  for (const s of bar.stackedImbalances) {
    if (levelPrice >= s.fromPrice - air && levelPrice <= s.toPrice + air) {
      marks.push(`stacked ${s.side} imbalance`);
    }
  }
  return marks.join(', ');
}

export { signed as signedVolume };
