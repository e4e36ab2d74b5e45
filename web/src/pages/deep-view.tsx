// Deep view of one pair (Whale and API plans): OBI, OFI, Kyle's lambda and VPIN with their
// history, price with the absorption events marked, CVD, the whales, the tracked wallets' net
// positions by category, regime and score. The deep view allows 10 requests a minute per key,
// so the page asks every 30 s (a second tab still fits) and says when it asks next.
import { useRef } from 'preact/hooks';
import { ApiError, data } from '../api.js';
import { categoryRows } from '../categories.js';
import { CategoryTable } from '../category-table.js';
import * as f from '../format.js';
import '../deep-view.css';
import { LineChart, type ChartMarker, type ChartPoint } from '../line-chart.js';
import { PlanGate } from '../plan-gate.js';
import { Link, SortTable, Status, usePoll, type Column } from '../ui.js';
import { WalletLink } from '../wallet-link.js';

const DEEP_PERIOD_MS = 30_000;
const HISTORY_PERIOD_MS = 60_000;
const HISTORY_MINUTES = 240;
const SAMPLES_MAX = 600;

interface Sample { tMs: number; price: number | null; obi: number | null; ofi: number | null;
  kyleLambda: number | null; vpin: number | null }
interface Whale { address: string | null; side: string; notional: number; price: number;
  size: number; time: string }
interface Absorption { time: string; kind: string; notional: number; moveBps?: number }

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);

async function minuteHistory(symbol: string): Promise<Sample[]> {
  try {
    const body = await data(`/api/v1/history/${encodeURIComponent(symbol)}` +
      `?metrics=candle,obi,ofi,kyleLambda,vpin&interval=1m&limit=${HISTORY_MINUTES}`);
    return (body.points as any[]).map((p) => ({ tMs: Date.parse(p.t), price: num(p.close),
      obi: num(p.obi), ofi: num(p.ofi), kyleLambda: num(p.kyleLambda), vpin: num(p.vpin) }));
  } catch (error) {
    // Nothing recorded (404) or not served by this front (503): the page draws its own samples.
    if (error instanceof ApiError && [404, 503].includes(error.problem.status)) return [];
    throw error;
  }
}

function series(samples: Sample[], key: keyof Omit<Sample, 'tMs'>): ChartPoint[] {
  const out: ChartPoint[] = [];
  for (const s of samples) if (s[key] !== null) out.push({ tMs: s.tMs, value: s[key]! });
  return out;
}

const whaleColumns: Column<Whale>[] = [
  { key: 'time', label: 'Time (UTC)', value: (r) => r.time, render: (r) => f.time(r.time) },
  { key: 'side', label: 'Side', value: (r) => r.side,
    render: (r) => <span class={r.side === 'buy' ? 'up' : 'down'}>{r.side}</span> },
  { key: 'notional', label: 'Notional', numeric: true, value: (r) => r.notional,
    render: (r) => f.usd(r.notional) },
  { key: 'price', label: 'Price', numeric: true, value: (r) => r.price,
    render: (r) => f.price(r.price) },
  { key: 'size', label: 'Size', numeric: true, value: (r) => r.size,
    render: (r) => f.num(r.size, 4) },
  { key: 'address', label: 'Wallet', value: (r) => r.address, render: (r) => (r.address
    ? <WalletLink address={r.address} />
    : <span class="muted">unknown</span>) },
];

const absorptionColumns: Column<Absorption>[] = [
  { key: 'time', label: 'Window (UTC)', value: (r) => r.time, render: (r) => f.time(r.time) },
  { key: 'kind', label: 'Kind', value: (r) => r.kind, render: (r) => absorptionText(r.kind) },
  { key: 'notional', label: 'Notional', numeric: true, value: (r) => r.notional,
    render: (r) => f.usd(r.notional) },
  { key: 'moveBps', label: 'Move', numeric: true, value: (r) => r.moveBps ?? null,
    render: (r) => (r.moveBps === undefined ? '—' : `${f.num(r.moveBps, 1)} bps`) },
];

function absorptionText(kind: string): string {
  return kind === 'sell_absorbed' ? 'sells absorbed (bullish)'
    : kind === 'buy_absorbed' ? 'buys absorbed (bearish)' : kind;
}

export function DeepView(props: { symbol: string; plan: string }) {
  return (
    <PlanGate plan={props.plan} needed="Whale" title={`${props.symbol} deep view`}
      layout={['figures', 'chart', 'small-charts', 'table']}
      what={'the pair\'s order book imbalance (OBI) and order flow imbalance (OFI) with their ' +
        'history, Kyle\'s lambda, VPIN and its level, the price with absorption events, the ' +
        'whales\' prints and the tracked wallets\' positions by category'}>
      <DeepPage symbol={props.symbol} />
    </PlanGate>
  );
}

function DeepPage(props: { symbol: string }) {
  const path = `/api/v1/deep-view/${encodeURIComponent(props.symbol)}`;
  const deep = usePoll(() => data(path), DEEP_PERIOD_MS, [props.symbol], { stopOnFinal: true });
  const past = usePoll(() => minuteHistory(props.symbol), HISTORY_PERIOD_MS, [props.symbol],
    { stopOnFinal: true });
  const samples = useRef<{ symbol: string; list: Sample[] }>({ symbol: '', list: [] });
  const v = deep.value;
  if (samples.current.symbol !== props.symbol) samples.current = { symbol: props.symbol, list: [] };
  if (v) {
    // The deep view has the latest figures only: the page keeps each answer as a point, drawn
    // after the recorded minutes (or alone when the history API has none).
    const tMs = Date.parse(v.asOf ?? v.updatedAt ?? '') || Date.now();
    const list = samples.current.list;
    if (list.length === 0 || list[list.length - 1].tMs < tMs) {
      list.push({ tMs, price: num(v.price), obi: num(v.obi), ofi: num(v.ofi),
        kyleLambda: num(v.kyleLambda), vpin: num(v.vpin) });
      if (list.length > SAMPLES_MAX) list.shift();
    }
  }
  const recorded = past.value ?? [];
  const lastRecordedMs = recorded.length ? recorded[recorded.length - 1].tMs : -Infinity;
  const all = [...recorded, ...samples.current.list.filter((s) => s.tMs > lastRecordedMs)];
  const absorption: Absorption[] = v?.absorption ?? [];
  const markers: ChartMarker[] = absorption.map((a) => ({ tMs: Date.parse(a.time),
    tone: a.kind === 'sell_absorbed' ? 'up' : 'down',
    label: `${f.time(a.time)}: ${absorptionText(a.kind)}, ${f.usd(a.notional)}` }));
  const cvd: ChartPoint[] = (v?.cvdHistory ?? []).map((p: any) => ({ tMs: Date.parse(p.time),
    value: p.cvd }));
  const final = deep.error !== null && deep.nextAtMs === null;
  return (
    <main id="main" class="deep">
      <header class="page-head">
        <h1>{props.symbol} deep view</h1>
        <nav aria-label="Pair views" class="tabs">
          <Link href={`/pair/${encodeURIComponent(props.symbol)}`}>Chart</Link>
          <Link href={`/pair/${encodeURIComponent(props.symbol)}/deep`} current>Deep view</Link>
          <Link href={`/smart-money?symbol=${encodeURIComponent(props.symbol)}`}>
            Smart money</Link>
          <Link href="/wallets">Wallets</Link>
        </nav>
        <NextRefresh atMs={deep.nextAtMs} />
      </header>
      <Status error={deep.error} loading={!v && !deep.error} />
      {!final && v && <DeepBody v={v} all={all} cvd={cvd} markers={markers}
        absorption={absorption} />}
      {past.error && !final && <p class="hint">History: {past.error}</p>}
    </main>
  );
}

function NextRefresh(props: { atMs: number | null }) {
  if (props.atMs === null) return null;
  return <p class="hint" aria-live="off">Refreshes every {DEEP_PERIOD_MS / 1000} s (the deep view
    allows 10 requests a minute per key); next at {f.time(new Date(props.atMs).toISOString())}.
  </p>;
}

function DeepBody(props: { v: any; all: Sample[]; cvd: ChartPoint[]; markers: ChartMarker[];
  absorption: Absorption[] }) {
  const { v, all } = props;
  const sm = v.smartMoney ?? { long: {}, short: {}, net: 0 };
  const rows = categoryRows(sm.long ?? {}, sm.short ?? {});
  return (
    <>
      <dl class="figures deep-figures">
        <div><dt>Price</dt><dd>{f.price(v.price)}</dd></div>
        <div><dt>OBI</dt><dd class={f.signClass(v.obi)}>{f.num(v.obi, 3)}</dd></div>
        <div><dt>OFI (10 s, base)</dt><dd class={f.signClass(v.ofi)}>{f.num(v.ofi, 2)}</dd></div>
        <div><dt>Kyle's λ (bps/$1M)</dt><dd>{f.num(v.kyleLambda, 3)}</dd></div>
        <div><dt>VPIN</dt><dd>{f.num(v.vpin, 3)}{' '}
          <span class={`level ${v.vpinLevel ?? ''}`}>{v.vpinLevel ?? '—'}</span></dd></div>
        <div><dt>Regime</dt><dd>{v.regime ?? '—'}</dd></div>
        <div><dt>Score</dt><dd class={f.signClass(v.signalScore)}>{v.signalScore ?? '—'}
          {v.signalDirection ? ` ${v.signalDirection}` : ''}</dd></div>
        <div><dt>CVD (UTC day)</dt><dd class={f.signClass(v.cvd)}>{f.usd(v.cvd)}</dd></div>
      </dl>
      {v.stale && <p class="status error" role="alert">The feed is stale: figures as of{' '}
        {f.time(v.asOf)}.</p>}
      <LineChart id="price" title="Price (USD), absorption marked" height={180}
        points={series(all, 'price')} format={f.price} markers={props.markers} />
      <div class="chart-grid">
        <LineChart id="obi" title="OBI (-1 to 1)" points={series(all, 'obi')} zero
          format={(x) => f.num(x, 3)} />
        <LineChart id="ofi" title="OFI (base units per 10 s)" points={series(all, 'ofi')} zero
          format={(x) => f.num(x, 2)} />
        <LineChart id="kyle" title="Kyle's λ (bps per $1M)" points={series(all, 'kyleLambda')}
          format={(x) => f.num(x, 3)} />
        <LineChart id="vpin" title="VPIN" points={series(all, 'vpin')}
          format={(x) => f.num(x, 3)} />
        <LineChart id="cvd" title="CVD (USD, 5 min)" points={props.cvd} zero format={f.usd} />
      </div>
      <h2 id="sm-title">Tracked wallets in {v.symbol} by category</h2>
      {rows.length === 0 ? <p class="status empty">No tracked wallet holds {v.symbol}.</p>
        : <CategoryTable labelledBy="sm-title" rows={rows} net={sm.net} />}
      <h2>Whales</h2>
      {(v.whales ?? []).length === 0 ? <p class="status empty">No whale print yet.</p>
        : <SortTable caption={`Whale prints in ${v.symbol}`} rows={v.whales as Whale[]}
          columns={whaleColumns} rowKey={(r) => `${r.time}${r.side}${r.notional}`}
          initial="time" />}
      <h2>Absorption</h2>
      {props.absorption.length === 0 ? <p class="status empty">No absorption event yet.</p>
        : <SortTable caption={`Absorption events in ${v.symbol}`} rows={props.absorption}
          columns={absorptionColumns} rowKey={(r) => `${r.time}${r.kind}`} initial="time" />}
    </>
  );
}
