// Pair: price candles with CVD, VPIN and open interest below (uPlot, cursors synced), zoom by
// dragging, time range buttons. Reads the history API; until it exists (404) the page draws
// what the service holds: the CVD history and the pair's figures as they come in.
import { useEffect, useRef, useState } from 'preact/hooks';
import uPlot from 'uplot';
import { ApiError, data } from '../api.js';
import * as f from '../format.js';
import { nextPollMs } from '../pace.js';
import { Link, Status } from '../ui.js';

interface Point { t: number; open?: number; high?: number; low?: number; close?: number;
  cvd?: number | null; vpin?: number | null; openInterest?: number | null }

const RANGES = [['1h', 3_600], ['4h', 14_400], ['24h', 86_400], ['All', 0]] as const;

async function history(symbol: string): Promise<Point[] | null> {
  try {
    const body = await data(`/api/v1/history/${encodeURIComponent(symbol)}` +
      '?metrics=candle,cvd,vpin,openInterest&interval=5m&limit=500');
    // `t` as ISO 8601 or epoch ms: uPlot's time axis is in seconds.
    return (body.points as any[]).map((p) => ({ ...p,
      t: (typeof p.t === 'number' ? p.t : Date.parse(p.t)) / 1000 }));
  } catch (error) {
    // No history to draw from: not on this plan, not recorded, or not served by this front (a
    // scale-out front, 503): the page falls back to what the service holds.
    if (error instanceof ApiError && [400, 403, 404, 503].includes(error.problem.status)) {
      return null;
    }
    throw error;
  }
}

async function cvdHistory(symbol: string): Promise<Point[]> {
  try {
    const body = await data(`/api/v1/cvd/${encodeURIComponent(symbol)}?interval=1m&limit=500`);
    return (body.points as any[]).map((p) => ({ t: Date.parse(p.time) / 1000, cvd: p.cvd }));
  } catch {
    return [];
  }
}

function css(name: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || '#888';
}

/**
 * Candles drawn on the price chart's canvas from the open/high/low/close columns. Each body is
 * as wide as its own spacing allows (the history's older part is hourly, its recent part
 * 5-minute), so an hour's candle is not drawn as thin as five minutes'.
 */
function candlePlugin(points: () => Point[]): uPlot.Plugin {
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

/** Compact axis labels: 64.2K, 1.25M, 0.31. */
function compact(value: number): string {
  const abs = Math.abs(value);
  if (abs >= 1e9) return `${+(value / 1e9).toFixed(2)}B`;
  if (abs >= 1e6) return `${+(value / 1e6).toFixed(2)}M`;
  if (abs >= 1e4) return `${+(value / 1e3).toFixed(1)}K`;
  return String(+value.toPrecision(4));
}

/** Compact labels, or full ones when the ticks are close together relative to their size. */
function tickLabels(_u: uPlot, splits: number[]): string[] {
  const step = splits.length > 1 ? Math.abs(splits[1] - splits[0]) : 0;
  return splits.map((v) => (step > 0 && step < Math.abs(v) / 100
    ? v.toLocaleString('en-US',
      { maximumFractionDigits: Math.max(0, -Math.floor(Math.log10(step))) })
    : compact(v)));
}

/**
 * The time axis in UTC, 24-hour, as every other time on the dashboard: `HH:MM` (`HH:MM:SS` when
 * ticks are seconds apart), the date `MM-DD` under the first tick of each day; days as dates.
 */
function timeTicks(_u: uPlot, splits: number[], _axis: number, _space: number, incr: number):
  string[] {
  let lastDay = '';
  return splits.map((seconds) => {
    const iso = new Date(seconds * 1000).toISOString();
    const day = iso.slice(5, 10);
    if (incr >= 86_400) return day;
    const clock = iso.slice(11, incr < 60 ? 19 : 16);
    const label = day === lastDay ? clock : `${clock}\n${day}`;
    lastDay = day;
    return label;
  });
}

/** A legend value in the page's own format (uPlot's default prints the raw number). */
const legend = (format: (value: number | null) => string) =>
  (_u: uPlot, value: number | null) => format(value);

/** Ticks on UTC's whole hours and days (uPlot places them in the browser's zone otherwise). */
const utcDate = (seconds: number) => uPlot.tzDate(new Date(seconds * 1000), 'Etc/UTC');

/** The y range with 5 % air (a flat or single-point series still gets a visible band). */
function padded(_u: uPlot, min: number, max: number): uPlot.Range.MinMax {
  if (min === null || max === null) return [0, 1];
  const span = max - min || Math.abs(max) * 0.01 || 1;
  return [min - span * 0.05, max + span * 0.05];
}

function chartOptions(title: string, width: number, height: number, series: uPlot.Series,
  plugins: uPlot.Plugin[] = []): uPlot.Options {
  const axis = { stroke: css('--muted'), grid: { stroke: css('--grid') }, ticks: { show: false } };
  return {
    title, width, height, plugins, cursor: { sync: { key: 'pair' }, drag: { x: true, y: false } },
    legend: { show: true }, scales: { x: { time: true }, y: { range: padded } }, tzDate: utcDate,
    axes: [{ ...axis, values: timeTicks }, { ...axis, size: 72, values: tickLabels }],
    series: [{ value: legend(f.secondsTime) },
      { points: { show: (u: uPlot) => u.data[0].length < 60 }, ...series }],
  };
}

export function Pair(props: { symbol: string; at: string | null }) {
  const [points, setPoints] = useState<Point[]>([]);
  const [source, setSource] = useState<'history' | 'live' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [latest, setLatest] = useState<any>(null);
  const [range, setRange] = useState<number>(props.at ? 14_400 : 0);
  const boxes = useRef<HTMLDivElement>(null);
  const plots = useRef<uPlot[]>([]);
  const held = useRef<Point[]>([]);
  held.current = points;

  useEffect(() => {
    let alive = true;
    let timer = 0;
    const poll = async () => {
      try {
        const pair = await data(`/api/v1/pair/${encodeURIComponent(props.symbol)}`);
        if (!alive) return;
        setLatest(pair);
        setPoints((old) => [...old, { t: Date.now() / 1000, open: pair.price, close: pair.price,
          high: pair.price, low: pair.price, vpin: pair.vpin, openInterest: pair.openInterest,
          cvd: pair.cvd ?? null }].slice(-2_000));
        setError(null);
      } catch (e) {
        if (alive) setError((e as Error).message);
      }
      if (alive) timer = window.setTimeout(poll, await nextPollMs(5_000));
    };
    void (async () => {
      try {
        const past = await history(props.symbol);
        if (!alive) return;
        if (past !== null) {
          setSource('history');
          setPoints(past);
          const pair = await data(`/api/v1/pair/${encodeURIComponent(props.symbol)}`);
          if (alive) setLatest(pair);
          return;
        }
        setSource('live');
        setPoints(await cvdHistory(props.symbol));
        void poll();
      } catch (e) {
        if (alive) setError((e as Error).message);
      }
    })();
    return () => { alive = false; clearTimeout(timer); };
  }, [props.symbol]);

  useEffect(() => {
    const box = boxes.current;
    if (!box || source === null) return;
    const width = Math.max(280, box.clientWidth);
    const mk = (title: string, height: number, series: uPlot.Series,
      plugins: uPlot.Plugin[] = []) =>
      new uPlot(chartOptions(title, width, height, series, plugins), [[], []], box);
    plots.current = [
      mk('Price (USD)', 300, { label: 'Close', stroke: css('--accent'), width: 1,
        value: legend(f.price) }, [candlePlugin(() => held.current)]),
      mk('CVD (USD)', 140, { label: 'CVD', stroke: css('--accent2'), width: 1.5,
        value: legend(f.usd) }),
      mk('VPIN', 120, { label: 'VPIN', stroke: css('--warn'), width: 1.5,
        value: legend((v) => f.num(v, 3)) }),
      mk('Open interest (USD)', 120, { label: 'OI', stroke: css('--muted'), width: 1.5,
        value: legend(f.usd) }),
    ];
    return () => { plots.current.forEach((p) => p.destroy()); plots.current = []; };
  }, [source]);

  useEffect(() => {
    const xs = points.map((p) => p.t);
    const columns: (keyof Point)[] = ['close', 'cvd', 'vpin', 'openInterest'];
    if (xs.length === 0) return;
    // One time axis for all four charts, so a bar lines up with its CVD, VPIN and OI below.
    const last = xs[xs.length - 1];
    const end = range > 0 && props.at ? Math.min(Date.parse(props.at) / 1000 + range / 2, last)
      : last;
    const start = range > 0 ? end - range : xs[0];
    const span = end - start < 60 ? { min: end - 900, max: end + 60 } : { min: start, max: end };
    plots.current.forEach((plot, i) => {
      // Each chart gets the points that carry its series: in the live fallback the CVD history
      // reaches back hours while the other figures start when the page opened.
      const own = points.filter((p) => typeof p[columns[i]] === 'number');
      plot.setData([own.map((p) => p.t), own.map((p) => p[columns[i]] as number)], false);
      plot.setScale('x', span);
    });
  }, [points, range, source]);

  return (
    <main id="main">
      <header class="page-head">
        <h1>{props.symbol}</h1>
        <Link href={`/pair/${encodeURIComponent(props.symbol)}/deep`}>Deep view</Link>
        <dl class="figures">
          <div><dt>Price</dt><dd>{f.price(latest?.price)}</dd></div>
          <div><dt>24h</dt>
            <dd class={f.signClass(latest?.change24h)}>{f.pct(latest?.change24h)}</dd></div>
          <div><dt>VPIN</dt><dd>{f.num(latest?.vpin, 3)}</dd></div>
          <div><dt>OI</dt><dd>{f.usd(latest?.openInterest)}</dd></div>
        </dl>
        <div class="controls" role="group" aria-label="Time range">
          {RANGES.map(([label, seconds]) => (
            <button type="button" aria-pressed={range === seconds}
              onClick={() => setRange(seconds)}>{label}</button>))}
        </div>
      </header>
      {props.at && <p class="hint">Signal bar at {f.time(props.at)}.</p>}
      {source === 'live' && <p class="hint">No stored history for this pair yet: the charts
        show the CVD the service holds and the figures since this page opened.</p>}
      <Status error={error} loading={source === null && !error} />
      <div class="charts" ref={boxes} aria-label={`${props.symbol} charts`} role="img" />
      <p class="hint">Drag across a chart to zoom; double-click to reset.</p>
    </main>
  );
}
