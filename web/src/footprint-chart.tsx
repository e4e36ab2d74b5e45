// The footprint chart: a canvas of the last bars' price levels with the volume profile beside
// it on the same price scale. Focusable: the arrow keys (Page, Home, End) move a bar cursor, the
// focused bar is summed up in words under the chart and listed level by level in a table for
// screen readers; a click puts the cursor on a bar.
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import * as f from './format.js';
import {
  DELTA_STRIP_PX, drawFootprint, drawFootprintTime, type Palette,
} from './footprint-draw.js';
import {
  barsRange, mergeRows, moveCursor, priceY, rowSizeFor, timeMs, volumeText, windowStart,
  type Footprint, type FootprintBar, type PriceScale,
} from './footprint-layout.js';
import { barSummary, barTime, levelMarks, signedVolume } from './footprint-words.js';
import { mergeProfileRows, type VolumeProfile } from './profile-layout.js';
import { VolumeProfileCanvas } from './volume-profile.js';

/** Wide enough for "10.0K x <.001" in 11 px figures; a narrower column shows colour only. */
const COLUMN_PX = 96;
const COLUMN_PX_MAX = 150;
const AXIS_PX = 68;
const TOP_PX = 8;
const TIME_AXIS_PX = 34;
const ROW_PX = 16;
const PLOT_PX_MIN = 280;
/** At 16 px, 120 rows are five windows of levels to scroll through: enough to read a day. */
const ROWS_MAX = 120;

function palette(): Palette {
  const style = getComputedStyle(document.documentElement);
  const v = (name: string) => style.getPropertyValue(`--${name}`).trim() || '#888888';
  return { up: v('up'), down: v('down'), muted: v('muted'), text: v('text'), grid: v('grid'),
    accent: v('accent'), warn: v('warn'), panel: v('panel') };
}

/** The element's width, followed as it resizes, and the theme, followed as it switches. */
function useFrameInputs(element: { current: HTMLElement | null }): [number, string] {
  const [width, setWidth] = useState(0);
  const [theme, setTheme] = useState(document.documentElement.dataset.theme ?? '');
  useEffect(() => {
    const resize = new ResizeObserver(() => setWidth(element.current?.clientWidth ?? 0));
    if (element.current) resize.observe(element.current);
    const themes = new MutationObserver(() =>
      setTheme(document.documentElement.dataset.theme ?? ''));
    themes.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    return () => { resize.disconnect(); themes.disconnect(); };
  }, []);
  return [width, theme];
}

function BarTable(props: { answer: Footprint; index: number }) {
  const bar = props.answer.bars[props.index];
  if (!bar) return null;
  const rows = [...bar.levels].reverse();
  return (
    <table class="sr-only" data-fp-table>
      <caption>{props.answer.symbol} {props.answer.timeframe} bar at {barTime(bar, true)}, by
        price level, highest first</caption>
      <thead><tr><th scope="col">Price</th><th scope="col">Bid (sold)</th>
        <th scope="col">Ask (bought)</th><th scope="col">Delta</th><th scope="col">Marks</th>
      </tr></thead>
      <tbody>{rows.map((l) => (
        <tr><th scope="row">{f.price(l.price)}</th><td>{volumeText(l.sell)}</td>
          <td>{volumeText(l.buy)}</td><td>{signedVolume(l.delta)}</td>
          <td>{levelMarks(bar, l.price, props.answer.levelSize)}</td></tr>))}</tbody>
    </table>
  );
}

/**
 * The shown bars, merged into rows of a power of two of levels when their range would need
 * more than ROWS_MAX rows (a fast market, or a long timeframe), and their range in rows.
 */
function rows(shown: FootprintBar[], levelSize: number) {
  const range = barsRange(shown, levelSize);
  const rowSize = range === null ? levelSize : rowSizeFor(range.levels, levelSize, ROWS_MAX);
  if (rowSize === levelSize) return { view: shown, range, rowSize };
  const view = shown.map((bar) => mergeRows(bar, rowSize));
  return { view, range: barsRange(view, rowSize), rowSize };
}

/** Sizes a canvas for the screen's pixel ratio and hands back its context in CSS pixels. */
function context(element: HTMLCanvasElement | null, widthPx: number, heightPx: number):
  CanvasRenderingContext2D | null {
  if (!element) return null;
  const ratio = window.devicePixelRatio || 1;
  element.width = Math.round(widthPx * ratio);
  element.height = Math.round(heightPx * ratio);
  const ctx = element.getContext('2d');
  ctx?.setTransform(ratio, 0, 0, ratio, 0, 0);
  ctx?.clearRect(0, 0, widthPx, heightPx);
  return ctx;
}

export function FootprintChart(props: { answer: Footprint; profile: VolumeProfile | null }) {
  const { answer, profile } = props;
  const wrap = useRef<HTMLDivElement>(null);
  const scroller = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const under = useRef<HTMLCanvasElement>(null);
  const [width, theme] = useFrameInputs(wrap);
  // The cursor is a bar's open time (stable across polls); null follows the newest bar.
  const [cursorMs, setCursorMs] = useState<number | null>(null);
  const start = useRef(0);
  // The bar whose point of control the levels were last scrolled to; another cursor scrolls.
  const scrolledTo = useRef<string>('');
  const bars = answer.bars;
  const found = cursorMs === null ? -1 : bars.findIndex((b) => timeMs(b.openTime) === cursorMs);
  const cursor = found >= 0 ? found : bars.length - 1;
  const profilePx = profile === null ? 0 : width >= 720 ? Math.min(240, Math.round(width * 0.2))
    : 110;
  const room = Math.max(COLUMN_PX, width - AXIS_PX - profilePx);
  const shown = Math.max(1, Math.min(bars.length, Math.floor(room / COLUMN_PX)));
  start.current = cursorMs === null ? Math.max(0, bars.length - shown)
    : windowStart(bars.length, shown, cursor, start.current);
  const columnPx = Math.min(COLUMN_PX_MAX, room / shown);
  const { view, range, rowSize } = rows(bars.slice(start.current, start.current + shown),
    answer.levelSize);
  // Rows tall enough for numbers: the levels scroll inside a window rather than shrink.
  const plotPx = range === null ? PLOT_PX_MIN : Math.max(PLOT_PX_MIN, range.levels * ROW_PX);
  const scale: PriceScale = { low: range?.low ?? 0, high: range?.high ?? 1, topPx: TOP_PX,
    heightPx: plotPx };
  const heightPx = TOP_PX * 2 + plotPx;
  const plotWidthPx = columnPx * view.length;
  const colours = palette();
  const focused = bars[cursor];

  // Drawn before the browser paints, so a canvas never shows a frame of an earlier size.
  useLayoutEffect(() => {
    if (width === 0 || range === null) return;
    const frame = { bars: view, levelSize: rowSize, scale, columnPx, plotWidthPx,
      axisPx: AXIS_PX, cursor: cursor - start.current, palette: colours,
      lines: profile === null ? [] : [
        ...profile.nakedPocs.map((n) => ({ price: n.price + profile.levelSize / 2, dashed: true })),
        ...(profile.pocPrice === null ? []
          : [{ price: profile.pocPrice + profile.levelSize / 2, dashed: false }])] };
    const ctx = context(canvas.current, plotWidthPx + AXIS_PX, heightPx);
    const below = context(under.current, plotWidthPx + AXIS_PX, DELTA_STRIP_PX + TIME_AXIS_PX);
    if (!ctx || !below) return;
    const drawn = drawFootprint(ctx, frame);
    drawFootprintTime(below, frame);
    const element = canvas.current!;
    element.dataset.cells = String(drawn.cells);
    element.dataset.numberCells = String(drawn.numberCells);
    element.dataset.pocBox = drawn.pocBox === null ? '' : drawn.pocBox.join(',');
    const key = `${answer.timeframe} ${cursor}`;
    if (focused && scroller.current && scrolledTo.current !== key) {
      scrolledTo.current = key;
      const mid = focused.pocPrice ?? (focused.high + focused.low) / 2;
      scroller.current.scrollTop = priceY(scale, mid) - scroller.current.clientHeight / 2;
    }
  });

  const onKey = (event: KeyboardEvent) => {
    const next = moveCursor(cursor, event.key, bars.length);
    if (next === null) return;
    event.preventDefault();
    setCursorMs(next === bars.length - 1 ? null : timeMs(bars[next].openTime));
  };
  const onClick = (event: MouseEvent) => {
    const i = Math.floor(event.offsetX / columnPx);
    if (i < 0 || i >= view.length) return;
    const index = start.current + i;
    setCursorMs(index === bars.length - 1 ? null : timeMs(bars[index].openTime));
  };
  const summary = focused ? barSummary(focused, f.price) : 'No bars yet.';
  const canvasWidth = { width: `${plotWidthPx + AXIS_PX}px` };
  return (
    <div class="fp" ref={wrap}>
      <div class="fp-frame" ref={scroller} tabIndex={0} role="group" data-theme-drawn={theme}
        aria-roledescription="footprint chart" aria-describedby="fp-summary"
        data-cursor={focused ? new Date(timeMs(focused.openTime)).toISOString() : ''}
        aria-label={`${answer.symbol} footprint, ${answer.timeframe} bars: left and right ` +
          'arrows move between bars, up and down scroll the prices'} onKeyDown={onKey}>
        {range === null ? <p class="status empty">No bars yet.</p> : <>
          <canvas ref={canvas} class="fp-canvas" aria-hidden="true" onClick={onClick}
            style={{ ...canvasWidth, height: `${heightPx}px` }} />
          {profile !== null && <VolumeProfileCanvas profile={mergeProfileRows(profile, rowSize)}
            scale={scale}
            widthPx={profilePx} heightPx={heightPx} palette={colours} />}
        </>}
      </div>
      {range !== null && <canvas ref={under} class="fp-under" aria-hidden="true"
        style={{ ...canvasWidth, height: `${DELTA_STRIP_PX + TIME_AXIS_PX}px` }} />}
      {rowSize !== answer.levelSize && <p class="hint fp-rows">Rows of{' '}
        {+rowSize.toPrecision(10)} ({Math.round(rowSize / answer.levelSize)} levels each) to fit
        these bars' range; the table for screen readers keeps every level.</p>}
      <p id="fp-summary" class="fp-summary" aria-live="polite">{summary}</p>
      <BarTable answer={answer} index={cursor} />
    </div>
  );
}
