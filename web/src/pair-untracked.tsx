// The Pair page of a listed pair the service does not track: what it has (the venue's price,
// open interest and funding, as the screener holds them) and why there are no charts.
import * as f from './format.js';

export function Untracked(props: { symbol: string; pair: any }) {
  const { pair } = props;
  return (
    <section aria-labelledby="untracked-title" class="untracked">
      <h2 id="untracked-title">{props.symbol} is listed but not tracked</h2>
      <p>Order flow (candles, CVD, VPIN, open interest history, signals) is recorded for the 100
        tracked pairs only: the listed pairs with the highest 24 h volume, re-ranked every hour.
        For {props.symbol} the service holds the venue's figures of now, shown here: price, 24 h
        change and volume, open interest and funding.</p>
      <dl class="figures">
        <div><dt>Funding</dt><dd>{f.pct(pair?.fundingAnnualized)} a year</dd></div>
        <div><dt>Funding rate</dt><dd>{f.num(pair?.fundingRate === undefined ? null
          : pair.fundingRate * 100, 4)} % per hour</dd></div>
        <div><dt>24h volume</dt><dd>{f.usd(pair?.volume24h)}</dd></div>
      </dl>
      <p class="hint">An operator does not pick the tracked pairs: a pair joins them on its own
        once its 24 h volume ranks in the top 100 (and leaves below rank 110). Its charts start
        from then on.</p>
    </section>
  );
}
