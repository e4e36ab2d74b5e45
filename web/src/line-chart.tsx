// A small SVG line chart: labelled ticks on both axes in the chart's units, an optional zero
// line and event markers (absorption on the price chart). Sized to its box, so the text stays
// at its CSS size at any width.
import { useEffect, useRef, useState } from 'preact/hooks';
import { timeLabel, timeTicks, valueLabel, valueTicks } from './ticks.js';

export interface ChartPoint { tMs: number; value: number }
export interface ChartMarker { tMs: number; label: string; tone: 'up' | 'down' }

const PAD = { left: 58, right: 8, top: 8, bottom: 20 };

function useWidth() {
  const box = useRef<HTMLElement>(null);
  const [width, setWidth] = useState(320);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const measure = () => setWidth(Math.max(200, Math.floor(el.clientWidth)));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return [box, width] as const;
}

export function LineChart(props: { title: string; points: ChartPoint[]; height?: number;
  format: (value: number) => string; markers?: ChartMarker[]; zero?: boolean; id?: string }) {
  const [box, width] = useWidth();
  const height = props.height ?? 120;
  const points = props.points.filter((p) => Number.isFinite(p.value));
  const last = points[points.length - 1];
  if (points.length === 0) {
    return <figure class="line-chart" ref={box} data-chart={props.id}>
      <figcaption>{props.title}</figcaption>
      <p class="status empty">No points yet.</p></figure>;
  }
  const t0 = points[0].tMs;
  const t1 = Math.max(last.tMs, t0 + 60_000);
  let lo = Math.min(...points.map((p) => p.value));
  let hi = Math.max(...points.map((p) => p.value));
  if (props.zero) [lo, hi] = [Math.min(lo, 0), Math.max(hi, 0)];
  const air = (hi - lo) * 0.08 || Math.abs(hi) * 0.05 || 1;
  [lo, hi] = [lo - air, hi + air];
  const plotW = width - PAD.left - PAD.right;
  const plotH = height - PAD.top - PAD.bottom;
  const x = (tMs: number) => PAD.left + ((tMs - t0) / (t1 - t0)) * plotW;
  const y = (v: number) => PAD.top + (1 - (v - lo) / (hi - lo)) * plotH;
  const ys = valueTicks(lo, hi, Math.max(3, Math.round(plotH / 26)));
  const yStep = ys.length > 1 ? ys[1] - ys[0] : Math.abs(ys[0] ?? 1) || 1;
  const xs = timeTicks(t0, t1, Math.max(2, Math.floor(plotW / 80)));
  const xStep = xs.length > 1 ? xs[1] - xs[0] : 60_000;
  const path = points.map((p, i) => `${i ? 'L' : 'M'}${x(p.tMs).toFixed(1)},` +
    `${y(p.value).toFixed(1)}`).join('');
  const markers = (props.markers ?? []).filter((m) => m.tMs >= t0 && m.tMs <= t1);
  const label = `${props.title}: ${points.length} points from ${timeLabel(t0, 1)} to ` +
    `${timeLabel(last.tMs, 1)} UTC, latest ${props.format(last.value)}` +
    (markers.length ? `, ${markers.length} marked events` : '');
  return (
    <figure class="line-chart" ref={box} data-chart={props.id}>
      <figcaption>{props.title} <span class="latest">{props.format(last.value)}</span>
      </figcaption>
      <svg width={width} height={height} role="img" aria-label={label}>
        {ys.map((v) => <g class="tick">
          <line x1={PAD.left} x2={width - PAD.right} y1={y(v)} y2={y(v)}
            class={v === 0 && props.zero ? 'zero' : ''} />
          <text x={PAD.left - 6} y={y(v) + 4} text-anchor="end">{valueLabel(v, yStep)}</text>
        </g>)}
        {xs.map((t) => <text class="tick" x={x(t)} y={height - 5} text-anchor="middle">
          {timeLabel(t, xStep)}</text>)}
        <path class="series" d={path} />
        {markers.map((m) => <g class={`marker ${m.tone}`} data-marker={m.tone}>
          <title>{m.label}</title>
          <line x1={x(m.tMs)} x2={x(m.tMs)} y1={PAD.top} y2={PAD.top + plotH} />
          <path d={`M${x(m.tMs) - 5},${PAD.top} h10 l-5,7 z`} />
        </g>)}
      </svg>
    </figure>
  );
}
