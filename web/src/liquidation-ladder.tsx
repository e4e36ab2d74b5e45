// The liquidation map drawn as a price ladder: one row per price band, highest price on top, the
// long notional that liquidates there as a heat bar to the left of the price and the short
// notional to the right, the mark between the bands it splits. Hovering a row, or stepping with
// the arrow keys once the ladder has focus, shows the band's exact figures; the same figures are
// in the table (LiquidationTable) for screen readers.
import { useState } from 'preact/hooks';
import * as f from './format.js';

export interface Band { priceLow: number; priceHigh: number; longNotional: number;
  shortNotional: number }

/** Dollars to the cent when small, to the dollar otherwise: $1,234,567, $412.50. */
export function usdExact(value: number): string {
  const digits = Math.abs(value) >= 1000 ? 0 : 2;
  return `$${value.toLocaleString('en-US', { minimumFractionDigits: digits,
    maximumFractionDigits: digits })}`;
}

/** Percent from the mark to the price, signed: "-1.50 %". */
function fromMark(price: number, mark: number): string {
  return f.pct(((price - mark) / mark) * 100);
}

/** The exact figures of a band, the line under the ladder. */
export function bandLine(band: Band, mark: number): string {
  return `${f.price(band.priceLow)} – ${f.price(band.priceHigh)} (${fromMark(band.priceLow,
    mark)} to ${fromMark(band.priceHigh, mark)}): longs ${usdExact(band.longNotional)}, ` +
    `shorts ${usdExact(band.shortNotional)}`;
}

/** A bar's width and heat, 0..1 of the largest band on either side (one scale for both). */
function heat(notional: number, max: number): { width: string; opacity: number } | null {
  if (!(notional > 0) || !(max > 0)) return null;
  const share = notional / max;
  // Up to 80 % of the side: the rest holds the amount written beside the bar.
  return { width: `${Math.max(2, share * 80)}%`, opacity: 0.3 + 0.7 * share };
}

/** Index of the band holding the most notional, either side. */
function busiest(bands: readonly Band[]): number {
  let best = 0;
  bands.forEach((b, i) => {
    const top = bands[best];
    if (b.longNotional + b.shortNotional > top.longNotional + top.shortNotional) best = i;
  });
  return best;
}

const LABEL_EVERY = 4;
const KEY_STEP: Record<string, number> = { ArrowUp: 1, ArrowDown: -1, PageUp: 10,
  PageDown: -10 };

export function LiquidationLadder(props: { bands: readonly Band[]; mark: number }) {
  const { bands, mark } = props;
  const [active, setActive] = useState<number | null>(null);
  const max = Math.max(...bands.map((b) => Math.max(b.longNotional, b.shortNotional)), 0);
  const shown = active === null ? null : bands[active] ?? null;
  const onKey = (event: KeyboardEvent) => {
    const start = active ?? busiest(bands);
    let next = event.key in KEY_STEP ? start + KEY_STEP[event.key]
      : event.key === 'Home' ? bands.length - 1 : event.key === 'End' ? 0 : null;
    if (next === null) return;
    event.preventDefault();
    next = Math.min(bands.length - 1, Math.max(0, next));
    setActive(next);
  };
  // Highest price on top: the ladder reads like an order book.
  const rows = bands.map((band, i) => ({ band, i })).reverse();
  return (
    <div class="ladder-box">
      <div class="ladder-head" aria-hidden="true">
        <span>Longs liquidate</span><span>Price</span><span>Shorts liquidate</span>
      </div>
      <div class="ladder" tabindex={0} role="group" aria-describedby="ladder-readout"
        aria-label="Liquidation ladder: up and down arrows step through the price bands"
        onKeyDown={onKey} onFocus={() => setActive((a) => a ?? busiest(bands))}
        onMouseLeave={() => setActive(null)}>
        {rows.map(({ band, i }) => {
          const long = heat(band.longNotional, max);
          const short = heat(band.shortNotional, max);
          const markHere = band.priceLow <= mark && mark < band.priceHigh;
          return (
            <div key={i} class={`rung${i === active ? ' active' : ''}` +
              `${markHere ? ' mark-below' : ''}`}
              data-band={i} aria-hidden="true" onMouseEnter={() => setActive(i)}>
              <span class="side long">{long && <>
                <span class="amount">{f.usd(band.longNotional)}</span>
                <span class="bar" data-notional={band.longNotional}
                  style={{ width: long.width, opacity: long.opacity }} /></>}</span>
              <span class="px">{(i % LABEL_EVERY === 0 || i === active)
                ? f.price(band.priceLow) : ''}</span>
              <span class="side short">{short && <>
                <span class="bar" data-notional={band.shortNotional}
                  style={{ width: short.width, opacity: short.opacity }} />
                <span class="amount">{f.usd(band.shortNotional)}</span></>}</span>
              {markHere && <span class="mark-tag">mark {f.price(mark)}</span>}
            </div>
          );
        })}
      </div>
      <p id="ladder-readout" class="readout" aria-live="polite">
        {shown ? bandLine(shown, mark) : 'Hover a band, or focus the ladder and use the arrow ' +
          'keys, for its exact figures.'}
      </p>
    </div>
  );
}

/** The bands that hold any notional, highest price first: the ladder's figures as a table. */
export function LiquidationTable(props: { bands: readonly Band[]; mark: number }) {
  const held = props.bands.filter((b) => b.longNotional > 0 || b.shortNotional > 0).reverse();
  if (held.length === 0) return null;
  return (
    <div class="table-wrap levels">
      <table>
        <caption>Bands with liquidation notional, highest price first</caption>
        <thead><tr>
          <th scope="col" class="num">From</th><th scope="col" class="num">To</th>
          <th scope="col" class="num">From mark</th>
          <th scope="col" class="num">Longs</th><th scope="col" class="num">Shorts</th>
        </tr></thead>
        <tbody>{held.map((b) => (
          <tr key={b.priceLow}>
            <td class="num">{f.price(b.priceLow)}</td><td class="num">{f.price(b.priceHigh)}</td>
            <td class="num">{fromMark(b.priceLow, props.mark)}</td>
            <td class="num long">{b.longNotional > 0 ? usdExact(b.longNotional) : '—'}</td>
            <td class="num short">{b.shortNotional > 0 ? usdExact(b.shortNotional) : '—'}</td>
          </tr>))}
        </tbody>
      </table>
    </div>
  );
}
