// Liquidation map (/liquidations/{symbol}): where the tracked wallets' positions in a pair would
// be liquidated, as a price ladder beside the mark, with the figures behind it and a table of
// the bands that hold notional. Whale and API; a lower plan sees the gate.
import { useEffect, useRef } from 'preact/hooks';
import { ApiError, data } from '../api.js';
import * as f from '../format.js';
import { LiquidationLadder, LiquidationTable, usdExact, type Band } from '../liquidation-ladder.js';
import { PlanGate } from '../plan-gate.js';
import { Cadence, Status, navigate, usePoll } from '../ui.js';
import './liquidations.css';

interface LiquidationMap {
  symbol: string; markPrice: number; bandWidthPct: number; coverage: number | null;
  bands: Band[]; positions: number; fromVenue: number; estimated: number;
  outsideNotional: { long: number; short: number };
}

const PERIOD_MS = 30_000;
/** Answers that asking again will not change: not a symbol, not listed, not tracked. */
const isFinal = (error: ApiError) => error.problem.status === 400 ||
  ['unknown_symbol', 'not_tracked'].includes(error.problem.code);

export function Liquidations(props: { plan: string; symbol: string }) {
  return (
    <PlanGate plan={props.plan} needed="Whale" title="Liquidation map" layout={['figures',
      'ladder']} what={'where the tracked wallets\' long and short positions in a pair would ' +
        'be liquidated, as notional per price band beside the current price'}>
      <LiquidationPage symbol={props.symbol} />
    </PlanGate>
  );
}

/** The tracked pairs, busiest first, for the picker (the liquidation map covers only those). */
function usePairs() {
  return usePoll(async () => {
    const body = await data<{ pairs: { symbol: string; tracked: boolean; volume24h: number;
      delisted: boolean }[] }>('/api/v1/screener');
    return body.pairs.filter((p) => p.tracked && !p.delisted)
      .sort((a, b) => b.volume24h - a.volume24h).map((p) => p.symbol);
  }, 60_000);
}

function Picker(props: { symbol: string; pairs: string[] }) {
  const listed = props.pairs.includes(props.symbol) || props.symbol === '';
  return (
    <label for="liq-symbol">Pair{' '}
      <select id="liq-symbol" value={props.symbol} onChange={(e) => navigate(
        `/liquidations/${encodeURIComponent((e.target as HTMLSelectElement).value)}`)}>
        {!listed && <option value={props.symbol}>{props.symbol}</option>}
        {props.symbol === '' && <option value="">Choose a pair</option>}
        {props.pairs.map((s) => <option value={s}>{s}</option>)}
      </select>
    </label>
  );
}

/** The map of `symbol`, polled; a final 404 is kept and not asked again. */
function useMap(symbol: string) {
  const final = useRef<{ symbol: string; error: ApiError } | null>(null);
  const poll = usePoll(async () => {
    if (symbol === '') return null;
    if (final.current?.symbol === symbol) throw final.current.error;
    try {
      return await data<LiquidationMap>(`/api/v1/liquidation-map/${encodeURIComponent(symbol)}`);
    } catch (error) {
      if (error instanceof ApiError && isFinal(error)) {
        final.current = { symbol, error };
      }
      throw error;
    }
  }, PERIOD_MS, [symbol]);
  // usePoll keeps the last good value across symbols: only this symbol's map is shown.
  const map = poll.value && poll.value.symbol.toLowerCase() === symbol.toLowerCase()
    ? poll.value : null;
  return { ...poll, map, stopped: final.current?.symbol === symbol };
}

function errorText(error: string | null, symbol: string): string | null {
  if (error === null) return null;
  if (/must be a listed pair|must be a ticker/.test(error)) {
    return `${symbol} is not a listed pair. Pick a tracked pair from the Pair list.`;
  }
  if (/tracked pairs only/.test(error)) {
    return `${symbol} is listed but not one of the tracked pairs: the liquidation map is ` +
      'computed for the tracked pairs only. Pick one from the Pair list.';
  }
  return `The liquidation map could not be read: ${error}`;
}

function Figures(props: { map: LiquidationMap }) {
  const { map } = props;
  const sum = (side: 'longNotional' | 'shortNotional') =>
    map.bands.reduce((total, b) => total + b[side], 0);
  const span = map.bandWidthPct * (map.bands.length / 2);
  const items: [string, string, string?][] = [
    ['Mark', f.price(map.markPrice)],
    [`Longs within -${span} %`, f.usd(sum('longNotional')), usdExact(sum('longNotional'))],
    [`Shorts within +${span} %`, f.usd(sum('shortNotional')), usdExact(sum('shortNotional'))],
    ['Beyond the ladder (L / S)', `${f.usd(map.outsideNotional.long)} / ` +
      f.usd(map.outsideNotional.short)],
    ['Positions (venue / estimated)', `${map.positions} (${map.fromVenue} / ${map.estimated})`],
    ['Share of open interest', map.coverage === null ? '—' : f.pct(map.coverage * 100, 1)
      .replace('+', '')],
    ['Band width', `${map.bandWidthPct} %`],
  ];
  return (
    <dl class="figures liq-figures">{items.map(([label, value, exact]) => (
      <div><dt>{label}</dt><dd title={exact}>{value}</dd></div>))}</dl>
  );
}

function LiquidationPage(props: { symbol: string }) {
  const { symbol } = props;
  const pairs = usePairs();
  const { map, error, nextMs, stopped } = useMap(symbol);
  // /liquidations alone: the busiest tracked pair.
  useEffect(() => {
    const first = pairs.value?.[0];
    if (symbol === '' && first) {
      history.replaceState(null, '', `/liquidations/${encodeURIComponent(first)}`);
      dispatchEvent(new PopStateEvent('popstate'));
    }
  }, [symbol, pairs.value]);
  const empty = map && map.positions === 0
    ? `No tracked wallet holds a position in ${map.symbol} yet: the map fills in as wallets are ` +
      'found from the whale prints.' : undefined;
  return (
    <main id="main">
      <header class="page-head">
        <h1>Liquidation map{symbol ? ` · ${symbol}` : ''}</h1>
        <div class="controls">
          <Picker symbol={symbol} pairs={pairs.value ?? []} />
          {!stopped && <Cadence nextMs={nextMs} minMs={PERIOD_MS} />}
        </div>
      </header>
      <Status error={map ? null : errorText(error, symbol)} loading={!map && !error}
        empty={empty} />
      {map && <Figures map={map} />}
      {map && map.positions > 0 && (
        <div class="liq-layout">
          <LiquidationLadder bands={map.bands} mark={map.markPrice} />
          <section aria-labelledby="levels-head">
            <h2 id="levels-head">Levels</h2>
            <LiquidationTable bands={map.bands} mark={map.markPrice} />
          </section>
        </div>
      )}
      {map && error && <p class="status error" role="alert">Showing the last map read: {error}</p>}
    </main>
  );
}
