// The Pair page's uPlot charts: candles on the price chart, round labelled ticks on every axis
// in the chart's units (axis.ts), time in UTC, and each UTC midnight drawn as a line (on the
// CVD chart labelled as its reset). Tick labels and marks are mirrored in the DOM (data-ticks
// on each axis's chart, .day-mark elements) for screen readers' neighbours: tests and tools.
import uPlot from 'uplot';
import { compactLabels, niceTicks, paddedRange, plainLabels, utcMidnights } from './axis.js';
import * as f from './format.js';
import type { Point } from './pair-series.js';

export function css(name: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || '#888';
}

/**
 * Candles drawn on the price chart's canvas from the open/high/low/close columns. Each body is
 * as wide as its own spacing allows (the history's older part is hourly, its recent part
 * 5-minute), so an hour's candle is not drawn as thin as five minutes'.
 */
export function candlePlugin(points: () => Point[]): uPlot.Plugin {
  return { hooks: { draw: (u: uPlot) => {
    const { ctx } = u;
    const rows = points().filter((p) => p.open !== undefined && p.close !== undefined);
    const xs = rows.map((p) => u.valToPos(p.t, 'x', true));
    const [up, down] = [css('--up'), css('--down')];
    ctx.save();
    for (let i = 0; i < rows.length; i++) {
      const p = rows[i];
      const x = xs[i];
      const spacing = rows.length < 2 ? u.bbox.width / 10
        : i + 1 < rows.length ? xs[i + 1] - x : x - xs[i - 1];
      const width = Math.max(1, Math.min(24, spacing * 0.6));
      const [o, c] = [u.valToPos(p.open!, 'y', true), u.valToPos(p.close!, 'y', true)];
      const h = u.valToPos(p.high ?? p.close!, 'y', true);
      const l = u.valToPos(p.low ?? p.close!, 'y', true);
      ctx.fillStyle = ctx.strokeStyle = p.close! >= p.open! ? up : down;
      ctx.beginPath();
      ctx.moveTo(x, h);
      ctx.lineTo(x, l);
      ctx.stroke();
      ctx.fillRect(x - width / 2, Math.min(o, c), width, Math.max(1, Math.abs(c - o)));
    }
    ctx.restore();
  } } };
}

/** The width a day needs on the x axis for its midnight's label. */
const DAY_LABEL_PX = 160;

/**
 * A line at each UTC midnight in view, as elements over the plot (so a test, and a reader's
 * tools, find them). `label` names what the midnight means on this chart (the CVD's reset).
 */
export function dayMarksPlugin(label: () => string | null): uPlot.Plugin {
  return { hooks: { draw: (u: uPlot) => {
    u.over.querySelectorAll('.day-mark').forEach((el) => el.remove());
    const { min, max } = u.scales.x;
    if (min === undefined || max === undefined) return;
    const text = label();
    const midnights = utcMidnights(min, max, 60);
    // Labels wherever a day is wide enough for one, else on the last midnight only.
    const roomy = midnights.length < 2 ||
      u.valToPos(midnights[1], 'x') - u.valToPos(midnights[0], 'x') >= DAY_LABEL_PX;
    for (const [i, t] of midnights.entries()) {
      const mark = document.createElement('div');
      mark.className = text ? 'day-mark reset' : 'day-mark';
      const x = u.valToPos(t, 'x');
      mark.style.left = `${x}px`;
      mark.dataset.t = new Date(t * 1000).toISOString();
      if (text && (roomy || i === midnights.length - 1)) {
        const tag = document.createElement('span');
        tag.textContent = text;
        // Near the right edge the label goes on the line's left, inside the plot.
        if (x > u.over.clientWidth - DAY_LABEL_PX) tag.className = 'before';
        mark.append(tag);
      }
      u.over.append(mark);
    }
  } } };
}

/**
 * The time axis in UTC, 24-hour, as every other time on the dashboard: `HH:MM` (`HH:MM:SS` when
 * ticks are seconds apart), the date `MM-DD` under the first tick of each day; days as dates.
 */
function timeTicks(u: uPlot, splits: number[], _axis: number, _space: number, incr: number):
  string[] {
  let lastDay = '';
  const labels = splits.map((seconds) => {
    const iso = new Date(seconds * 1000).toISOString();
    const day = iso.slice(5, 10);
    if (incr >= 86_400) return day;
    const clock = iso.slice(11, incr < 60 ? 19 : 16);
    const label = day === lastDay ? clock : `${clock}\n${day}`;
    lastDay = day;
    return label;
  });
  u.root.dataset.xTicks = labels.join('|').replace(/\n/g, ' ');
  return labels;
}

/** A legend value in the page's own format (uPlot's default prints the raw number). */
export const legend = (format: (value: number | null) => string) =>
  (_u: uPlot, value: number | null) => format(value);

/** Ticks on UTC's whole hours and days (uPlot places them in the browser's zone otherwise). */
const utcDate = (seconds: number) => uPlot.tzDate(new Date(seconds * 1000), 'Etc/UTC');

/** How a chart's y axis is labelled: USD as K/M/B, a price or a ratio in full. */
export type YUnit = 'usd' | 'plain';

/** Ticks per y axis: about one per 40 px of the chart's height, at least 3. */
const tickCount = (height: number) => Math.max(3, Math.min(8, Math.floor(height / 40)));

function yAxis(unit: YUnit, height: number) {
  return {
    size: 64,
    splits: (_u: uPlot, _i: number, min: number, max: number) => niceTicks(min, max,
      tickCount(height)),
    values: (u: uPlot, splits: number[]) => {
      const labels = unit === 'usd' ? compactLabels(splits) : plainLabels(splits);
      u.root.dataset.yTicks = labels.join('|');
      return labels;
    },
  };
}

export interface ChartSpec { title: string; height: number; unit: YUnit; series: uPlot.Series;
  plugins?: uPlot.Plugin[];
  /** Values beyond the series that the y range must hold between two times (candle wicks). */
  extent?: (fromSeconds: number, toSeconds: number) => [number, number] | null }

/** The lowest low and highest high of the candles between two times. */
export function candleExtent(points: () => Point[]) {
  return (from: number, to: number): [number, number] | null => {
    let [low, high] = [Infinity, -Infinity];
    for (const p of points()) {
      if (p.t < from || p.t > to) continue;
      low = Math.min(low, p.low ?? Infinity);
      high = Math.max(high, p.high ?? -Infinity);
    }
    return low <= high ? [low, high] : null;
  };
}

export function chartOptions(spec: ChartSpec, width: number): uPlot.Options {
  const axis = { stroke: css('--muted'), grid: { stroke: css('--grid') }, ticks: { show: false } };
  return {
    title: spec.title, width, height: spec.height, plugins: spec.plugins ?? [],
    cursor: { sync: { key: 'pair' }, drag: { x: true, y: false } }, legend: { show: true },
    scales: { x: { time: true },
      y: { range: (u, min, max) => {
        if (min === null || max === null) return [0, 1];
        const wide = spec.extent?.(u.scales.x.min ?? -Infinity, u.scales.x.max ?? Infinity);
        return wide ? paddedRange(Math.min(min, wide[0]), Math.max(max, wide[1]))
          : paddedRange(min, max);
      } } },
    tzDate: utcDate,
    axes: [{ ...axis, space: 70, values: timeTicks },
      { ...axis, ...yAxis(spec.unit, spec.height) }],
    series: [{ value: legend(f.secondsTime) },
      { points: { show: (u: uPlot) => u.data[0].length < 60 }, ...spec.series }],
  };
}
