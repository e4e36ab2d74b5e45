// Drawing the footprint on its canvas: each bar a column of price levels, "bid x ask" where the
// cell holds it and a buy/sell colour where it does not, the point of control outlined, stacked
// imbalances as a band on the column's edge, bars built from candles as a plain high-low bar,
// the price axis on the right and UTC times below.
import {
  barLevelSize, cellShade, cellText, CELL_PAD_PX, deltaScaleMax, fitsNumbers, FONT_PX, priceLabel, priceTicks,
  priceY, rgba, timeLabels, timeMs, volumeText, type FootprintBar, type PriceScale,
} from './footprint-layout.js';

export interface Palette { up: string; down: string; muted: string; text: string; grid: string;
  accent: string; warn: string; panel: string }

export interface FootprintFrame {
  bars: readonly FootprintBar[]; levelSize: number; scale: PriceScale; columnPx: number;
  plotWidthPx: number; axisPx: number; cursor: number; palette: Palette;
  /** Lines across the bars (at a level's middle): the profile's point of control and earlier
   * days' naked ones. */
  lines: { price: number; dashed: boolean }[];
}

/** What was drawn, for the page's tests and the screen reader's table. */
export interface Drawn { cells: number; numberCells: number; pocBox: number[] | null }

export const MONO = 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace';
export const DELTA_STRIP_PX = 18;

function drawLevels(ctx: CanvasRenderingContext2D, f: FootprintFrame, bar: FootprintBar,
  x: number, scaleMax: number, drawn: Drawn): void {
  const charPx = ctx.measureText('0').width;
  const crossPx = ctx.measureText(' x ').width;
  const mid = x + f.columnPx / 2;
  const size = barLevelSize(bar, f.levelSize);
  for (const level of bar.levels) {
    const top = priceY(f.scale, level.price + size);
    const height = priceY(f.scale, level.price) - top;
    const shade = cellShade(level.delta, level.buy + level.sell, scaleMax);
    const hue = shade.side === 'buy' ? f.palette.up : shade.side === 'sell' ? f.palette.down
      : f.palette.muted;
    const [bid, ask] = cellText(level);
    const numbers = fitsNumbers(Math.max(bid.length, ask.length) * charPx, crossPx, f.columnPx - 2,
      height);
    // Behind numbers the colour is lighter, so the figures stay readable in both themes.
    ctx.fillStyle = rgba(hue, numbers ? shade.alpha * 0.55 : shade.alpha);
    ctx.fillRect(x + 1, top + 0.5, f.columnPx - 2, Math.max(1, height - 1));
    drawn.cells++;
    if (!numbers) continue;
    drawn.numberCells++;
    const y = top + height / 2;
    ctx.fillStyle = f.palette.text;
    ctx.textAlign = 'right';
    ctx.fillText(bid, mid - crossPx / 2, y);
    ctx.textAlign = 'center';
    ctx.fillStyle = f.palette.muted;
    ctx.fillText('x', mid, y);
    ctx.textAlign = 'left';
    ctx.fillStyle = f.palette.text;
    ctx.fillText(ask, mid + crossPx / 2, y);
  }
}

function drawMarks(ctx: CanvasRenderingContext2D, f: FootprintFrame, bar: FootprintBar,
  x: number, isCursor: boolean, drawn: Drawn): void {
  const size = barLevelSize(bar, f.levelSize);
  for (const stack of bar.stackedImbalances) {
    const top = priceY(f.scale, stack.toPrice + size);
    const bottom = priceY(f.scale, stack.fromPrice);
    ctx.fillStyle = stack.side === 'buy' ? f.palette.up : f.palette.down;
    // Buyers' stacks on the column's right (the ask side), sellers' on its left (the bid).
    ctx.fillRect(stack.side === 'buy' ? x + f.columnPx - 4 : x + 1, top, 3, bottom - top);
  }
  if (bar.pocPrice === null || bar.levels.length === 0) return;
  const top = priceY(f.scale, bar.pocPrice + size);
  const height = priceY(f.scale, bar.pocPrice) - top;
  ctx.strokeStyle = f.palette.warn;
  ctx.lineWidth = 2;
  ctx.strokeRect(x + 2, top + 1, f.columnPx - 4, Math.max(2, height - 2));
  if (isCursor) drawn.pocBox = [x + 2, top + 1, f.columnPx - 4, Math.max(2, height - 2)];
}

function drawCandleBar(ctx: CanvasRenderingContext2D, f: FootprintFrame, bar: FootprintBar,
  x: number): void {
  const mid = Math.round(x + (bar.basis === 'mixed' ? 4 : f.columnPx / 2)) + 0.5;
  ctx.strokeStyle = f.palette.muted;
  ctx.lineWidth = bar.basis === 'mixed' ? 1 : 3;
  ctx.beginPath();
  ctx.moveTo(mid, priceY(f.scale, bar.high));
  ctx.lineTo(mid, priceY(f.scale, bar.low));
  ctx.stroke();
}

function drawDelta(ctx: CanvasRenderingContext2D, f: FootprintFrame, bar: FootprintBar,
  x: number): void {
  const y = DELTA_STRIP_PX / 2;
  if (bar.basis === 'candles') return;
  ctx.fillStyle = bar.delta > 0 ? f.palette.up : bar.delta < 0 ? f.palette.down : f.palette.muted;
  ctx.textAlign = 'center';
  const text = `${bar.delta > 0 ? '+' : ''}${volumeText(bar.delta)}`;
  if (ctx.measureText(text).width + 2 * CELL_PAD_PX > f.columnPx) return;
  ctx.fillText(text, x + f.columnPx / 2, y);
}

function drawPriceAxis(ctx: CanvasRenderingContext2D, f: FootprintFrame): void {
  const ticks = priceTicks(f.scale);
  const step = ticks.length > 1 ? ticks[1] - ticks[0] : f.levelSize;
  ctx.textAlign = 'left';
  for (const price of ticks) {
    const y = Math.round(priceY(f.scale, price)) + 0.5;
    ctx.strokeStyle = f.palette.grid;
    ctx.lineWidth = 1;
    ctx.beginPath();
    ctx.moveTo(0, y);
    ctx.lineTo(f.plotWidthPx + 4, y);
    ctx.stroke();
    ctx.fillStyle = f.palette.muted;
    ctx.fillText(priceLabel(price, step), f.plotWidthPx + 6, y);
  }
}

function drawTimeAxis(ctx: CanvasRenderingContext2D, f: FootprintFrame): void {
  const labels = timeLabels(f.bars.map((b) => timeMs(b.openTime)));
  const every = Math.max(1, Math.ceil(44 / f.columnPx));
  const y = DELTA_STRIP_PX + 10;
  ctx.textAlign = 'center';
  labels.forEach((label, i) => {
    if (i % every !== 0 && label.day === null) return;
    const x = i * f.columnPx + f.columnPx / 2;
    ctx.fillStyle = f.palette.muted;
    ctx.fillText(label.clock, x, y);
    if (label.day !== null) ctx.fillText(label.day, x, y + 13);
  });
}

function drawLines(ctx: CanvasRenderingContext2D, f: FootprintFrame): void {
  for (const line of f.lines) {
    const y = priceY(f.scale, line.price);
    if (y < f.scale.topPx || y > f.scale.topPx + f.scale.heightPx) continue;
    ctx.strokeStyle = rgba(f.palette.accent, 0.7);
    ctx.lineWidth = 1;
    ctx.setLineDash(line.dashed ? [4, 4] : []);
    ctx.beginPath();
    ctx.moveTo(0, Math.round(y) + 0.5);
    ctx.lineTo(f.plotWidthPx, Math.round(y) + 0.5);
    ctx.stroke();
  }
  ctx.setLineDash([]);
}

function setText(ctx: CanvasRenderingContext2D): void {
  ctx.font = `${FONT_PX}px ${MONO}`;
  ctx.textBaseline = 'middle';
}

/** Draws the bars' levels (the context scaled to CSS pixels) and says what it drew. */
export function drawFootprint(ctx: CanvasRenderingContext2D, f: FootprintFrame): Drawn {
  const drawn: Drawn = { cells: 0, numberCells: 0, pocBox: null };
  setText(ctx);
  const [top, height] = [f.scale.topPx, f.scale.heightPx];
  if (f.cursor >= 0 && f.cursor < f.bars.length) {
    ctx.fillStyle = f.palette.panel;
    ctx.fillRect(f.cursor * f.columnPx, 0, f.columnPx, top * 2 + height);
  }
  drawPriceAxis(ctx, f);
  const scaleMax = deltaScaleMax(f.bars);
  f.bars.forEach((bar, i) => {
    const x = i * f.columnPx;
    if (bar.basis !== 'trades') drawCandleBar(ctx, f, bar, x);
    drawLevels(ctx, f, bar, x, scaleMax, drawn);
    drawMarks(ctx, f, bar, x, i === f.cursor, drawn);
  });
  drawLines(ctx, f);
  if (f.cursor >= 0 && f.cursor < f.bars.length) {
    ctx.strokeStyle = f.palette.accent;
    ctx.lineWidth = 1;
    ctx.strokeRect(f.cursor * f.columnPx + 0.5, 0.5, f.columnPx - 1, top * 2 + height - 1);
  }
  return drawn;
}

/** Draws each bar's delta and its UTC time, under the levels (they scroll; these stay). */
export function drawFootprintTime(ctx: CanvasRenderingContext2D, f: FootprintFrame): void {
  setText(ctx);
  if (f.cursor >= 0 && f.cursor < f.bars.length) {
    ctx.fillStyle = f.palette.panel;
    ctx.fillRect(f.cursor * f.columnPx, 0, f.columnPx, DELTA_STRIP_PX);
  }
  f.bars.forEach((bar, i) => drawDelta(ctx, f, bar, i * f.columnPx));
  drawTimeAxis(ctx, f);
}
