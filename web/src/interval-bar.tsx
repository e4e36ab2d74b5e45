// An estimate with its 95 % interval drawn on a scale shared by a table's rows, against a
// reference (the baseline) and zero: the eye compares rows only when they share one axis.
import { at, type Scale } from './interval-scale.js';

export function IntervalBar(props: { scale: Scale; value: number | null | undefined;
  low: number | null | undefined; high: number | null | undefined;
  reference: number | null | undefined; tone: string; label: string }) {
  const { scale, value, low, high, reference } = props;
  const has = (v: number | null | undefined): v is number =>
    typeof v === 'number' && Number.isFinite(v);
  return (
    <div class={`ivl ${props.tone}`} role="img" aria-label={props.label}>
      <span class="ivl-zero" style={{ left: `${at(scale, 0)}%` }} />
      {has(reference) && <span class="ivl-ref" style={{ left: `${at(scale, reference)}%` }} />}
      {has(low) && has(high) && <span class="ivl-range" style={{ left: `${at(scale, low)}%`,
        width: `${Math.max(at(scale, high) - at(scale, low), 0.5)}%` }} />}
      {has(value) && <span class="ivl-dot" style={{ left: `${at(scale, value)}%` }} />}
    </div>
  );
}

/** The scale's ends and zero, under the bars' column heading. */
export function ScaleAxis(props: { scale: Scale; format: (value: number) => string }) {
  const { scale } = props;
  return (
    <div class="ivl-axis" aria-hidden="true">
      <span style={{ left: '0%' }}>{props.format(scale.min)}</span>
      {scale.min < 0 && scale.max > 0 &&
        <span style={{ left: `${at(scale, 0)}%` }}>{props.format(0)}</span>}
      <span style={{ left: '100%' }}>{props.format(scale.max)}</span>
    </div>
  );
}
