// The volume profile beside the footprint, on the same price scale: a horizontal bar of volume
// per level, the value area shaded, the point of control as a line, and earlier days' untested
// (naked) points of control marked; marks beyond the view are pinned to its edge with an arrow.
import { useLayoutEffect, useRef } from 'preact/hooks';
import { FONT_PX, priceY, rgba, type PriceScale } from './footprint-layout.js';
import type { Palette } from './footprint-draw.js';
import {
  dayOf, inValueArea, markAt, profileBarPx, profileVolumeMax, type VolumeProfile,
} from './profile-layout.js';

const LABEL_PX = 84;
const LABEL_LINE_PX = 13;

function drawBars(ctx: CanvasRenderingContext2D, p: VolumeProfile, scale: PriceScale,
  widthPx: number, palette: Palette): void {
  const bottom = scale.topPx + scale.heightPx;
  if (p.valueAreaLow !== null && p.valueAreaHigh !== null) {
    const top = Math.max(scale.topPx, priceY(scale, p.valueAreaHigh));
    const low = Math.min(bottom, priceY(scale, p.valueAreaLow));
    ctx.fillStyle = rgba(palette.accent, 0.1);
    if (low > top) ctx.fillRect(0, top, widthPx, low - top);
  }
  const max = profileVolumeMax(p);
  for (const level of p.levels) {
    const top = priceY(scale, level.price + p.levelSize);
    const height = priceY(scale, level.price) - top;
    if (top + height < scale.topPx || top > bottom) continue;
    ctx.fillStyle = inValueArea(level.price, p) ? rgba(palette.accent, 0.6)
      : rgba(palette.muted, 0.4);
    ctx.fillRect(2, Math.max(scale.topPx, top + 0.5),
      profileBarPx(level.volume, max, widthPx - LABEL_PX - 4), Math.max(1, height - 1));
  }
}

function drawMark(ctx: CanvasRenderingContext2D, scale: PriceScale, widthPx: number,
  mark: { price: number; label: string; colour: string; dashed: boolean }, levelSize: number,
  pinned: { above: number; below: number }): void {
  const { y, off } = markAt(scale, mark.price, levelSize);
  const row = Math.round(y) + 0.5;
  ctx.strokeStyle = ctx.fillStyle = mark.colour;
  ctx.lineWidth = mark.dashed ? 1 : 2;
  ctx.setLineDash(mark.dashed ? [4, 3] : []);
  if (off === null) {
    ctx.beginPath();
    ctx.moveTo(0, row);
    ctx.lineTo(widthPx - LABEL_PX, row);
    ctx.stroke();
  }
  ctx.setLineDash([]);
  const arrow = off === 'above' ? '▲ ' : off === 'below' ? '▼ ' : '';
  ctx.textAlign = 'left';
  // Marks pinned to an edge stack inwards, one label line each, so none hides another.
  const labelY = off === 'above' ? row + 7 + LABEL_LINE_PX * pinned.above++
    : off === 'below' ? row - 7 - LABEL_LINE_PX * pinned.below++ : row;
  ctx.fillText(`${arrow}${mark.label}`, widthPx - LABEL_PX + 4, labelY);
}

export function drawProfile(ctx: CanvasRenderingContext2D, p: VolumeProfile, scale: PriceScale,
  widthPx: number, palette: Palette): void {
  ctx.font = `${FONT_PX}px system-ui, sans-serif`;
  ctx.textBaseline = 'middle';
  ctx.strokeStyle = palette.grid;
  ctx.lineWidth = 1;
  ctx.strokeRect(0.5, scale.topPx + 0.5, widthPx - 1, scale.heightPx - 1);
  ctx.save();
  ctx.beginPath();
  ctx.rect(0, scale.topPx, widthPx, scale.heightPx);
  ctx.clip();
  drawBars(ctx, p, scale, widthPx, palette);
  ctx.restore();
  const pinned = { above: 0, below: 0 };
  if (p.pocPrice !== null) {
    drawMark(ctx, scale, widthPx, { price: p.pocPrice, label: 'POC', colour: palette.warn,
      dashed: false }, p.levelSize, pinned);
  }
  for (const naked of p.nakedPocs) {
    drawMark(ctx, scale, widthPx, { price: naked.price, label: `nPOC ${dayOf(naked.sessionStart)}`,
      colour: palette.accent, dashed: true }, p.levelSize, pinned);
  }
}

/** The profile's canvas: as tall as the footprint's, drawn on its scale. */
export function VolumeProfileCanvas(props: { profile: VolumeProfile; scale: PriceScale;
  widthPx: number; heightPx: number; palette: Palette }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useLayoutEffect(() => {
    const element = canvas.current;
    if (!element) return;
    const ratio = window.devicePixelRatio || 1;
    element.width = Math.round(props.widthPx * ratio);
    element.height = Math.round(props.heightPx * ratio);
    const ctx = element.getContext('2d');
    if (!ctx) return;
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.clearRect(0, 0, props.widthPx, props.heightPx);
    drawProfile(ctx, props.profile, props.scale, props.widthPx, props.palette);
    element.dataset.levels = String(props.profile.levels.length);
  });
  return <canvas ref={canvas} class="vp-canvas" aria-hidden="true"
    style={{ width: `${props.widthPx}px`, height: `${props.heightPx}px` }} />;
}
