// Wallets (Whale plan and above): every tracked wallet with a known state, its account value,
// open notional, leverage and PnL; and one wallet's page with its positions.
import { data } from '../api.js';
import { categoryLabel } from '../categories.js';
import * as f from '../format.js';
import { PlanGate } from '../plan-gate.js';
import { Link, SortTable, Status, usePoll, type Column } from '../ui.js';
import { WalletLink } from '../wallet-link.js';

interface WalletPosition { symbol: string; side: string; size: number; notional: number;
  leverage: number; leverageType?: string; entryPrice: number; unrealizedPnl: number;
  liquidationPrice: number | null; marginUsed?: number }
interface Wallet { address: string; label: string | null; category: string;
  categoryReason?: string; accountValue: number; positions: WalletPosition[]; stateAt?: string;
  metrics?: { openNotional?: number; effectiveLeverage?: number | null; maxLeverage?: number;
    realizedPnl?: number } }

const unrealized = (w: Wallet) => w.positions.reduce((sum, p) => sum + p.unrealizedPnl, 0);
const openNotional = (w: Wallet) => w.metrics?.openNotional ??
  w.positions.reduce((sum, p) => sum + p.notional, 0);
const pnl = (value: number | null | undefined) =>
  <span class={f.signClass(value)}>{f.usd(value)}</span>;
const leverage = (value: number | null | undefined) =>
  (value === null || value === undefined ? '—' : `${f.num(value, 1)}×`);

const walletColumns: Column<Wallet>[] = [
  { key: 'address', label: 'Wallet', value: (r) => r.label ?? r.address,
    render: (r) => <WalletLink address={r.address} label={r.label} /> },
  { key: 'category', label: 'Category', value: (r) => r.category,
    render: (r) => categoryLabel(r.category) },
  { key: 'accountValue', label: 'Account value', numeric: true, value: (r) => r.accountValue,
    render: (r) => f.usd(r.accountValue) },
  { key: 'open', label: 'Open notional', numeric: true, value: openNotional,
    render: (r) => f.usd(openNotional(r)) },
  { key: 'leverage', label: 'Eff. leverage', numeric: true,
    value: (r) => r.metrics?.effectiveLeverage ?? null,
    render: (r) => leverage(r.metrics?.effectiveLeverage) },
  { key: 'positions', label: 'Positions', numeric: true, value: (r) => r.positions.length },
  { key: 'upnl', label: 'Unrealized PnL', numeric: true, value: unrealized,
    render: (r) => pnl(unrealized(r)) },
  { key: 'rpnl', label: 'Realized PnL (est.)', numeric: true,
    value: (r) => r.metrics?.realizedPnl ?? null, render: (r) => pnl(r.metrics?.realizedPnl) },
];

const positionColumns: Column<WalletPosition>[] = [
  { key: 'symbol', label: 'Pair', value: (r) => r.symbol,
    render: (r) => <Link href={`/pair/${encodeURIComponent(r.symbol)}/deep`}>{r.symbol}</Link> },
  { key: 'side', label: 'Side', value: (r) => r.side,
    render: (r) => <span class={r.side === 'long' ? 'up' : 'down'}>{r.side}</span> },
  { key: 'size', label: 'Size', numeric: true, value: (r) => r.size,
    render: (r) => f.num(r.size, 4) },
  { key: 'notional', label: 'Notional', numeric: true, value: (r) => r.notional,
    render: (r) => f.usd(r.notional) },
  { key: 'leverage', label: 'Leverage', numeric: true, value: (r) => r.leverage,
    render: (r) => `${leverage(r.leverage)}${r.leverageType ? ` ${r.leverageType}` : ''}` },
  { key: 'entryPrice', label: 'Entry', numeric: true, value: (r) => r.entryPrice,
    render: (r) => f.price(r.entryPrice) },
  { key: 'liquidationPrice', label: 'Liquidation', numeric: true,
    value: (r) => r.liquidationPrice, render: (r) => f.price(r.liquidationPrice) },
  { key: 'marginUsed', label: 'Margin', numeric: true, value: (r) => r.marginUsed ?? null,
    render: (r) => f.usd(r.marginUsed) },
  { key: 'unrealizedPnl', label: 'Unrealized PnL', numeric: true, value: (r) => r.unrealizedPnl,
    render: (r) => pnl(r.unrealizedPnl) },
];

const WALLETS_WHAT = 'every tracked wallet with its category, account value, open notional, ' +
  'leverage and PnL, and each wallet\'s positions with size, leverage, entry, liquidation ' +
  'price and unrealized PnL';

export function Wallets(props: { plan: string }) {
  return (
    <PlanGate plan={props.plan} needed="Whale" title="Wallets" layout={['table']}
      what={WALLETS_WHAT}>
      <WalletsPage />
    </PlanGate>
  );
}

function WalletsPage() {
  const { value, error } = usePoll(() => data('/api/v1/wallets'), 30_000);
  const wallets: Wallet[] = value?.wallets ?? [];
  return (
    <main id="main">
      <header class="page-head"><h1>Wallets</h1>
        <Link href="/smart-money">Positions by category</Link></header>
      <Status error={error} loading={!value && !error}
        empty={value && wallets.length === 0 ? 'No tracked wallet has a known state yet.'
          : undefined} />
      {wallets.length > 0 && <SortTable caption="Tracked wallets" rows={wallets}
        columns={walletColumns} rowKey={(r) => r.address} initial="accountValue" />}
    </main>
  );
}

export function WalletDetail(props: { plan: string; address: string }) {
  return (
    <PlanGate plan={props.plan} needed="Whale" title="Wallet" layout={['figures', 'table']}
      what={WALLETS_WHAT}>
      <WalletPage address={props.address} />
    </PlanGate>
  );
}

function WalletPage(props: { address: string }) {
  const { value, error } = usePoll<Wallet>(() =>
    data(`/api/v1/wallets/${encodeURIComponent(props.address)}`), 30_000, [props.address],
  { stopOnFinal: true });
  const w = error ? null : value;
  return (
    <main id="main">
      <header class="page-head">
        <h1>{w?.label ?? 'Wallet'} <code class="address">{props.address}</code></h1>
        <Link href="/wallets">All wallets</Link>
      </header>
      <Status error={error} loading={!value && !error} />
      {w && <>
        <dl class="figures wallet-figures">
          <div><dt>Category</dt><dd title={w.categoryReason}>{categoryLabel(w.category)}</dd></div>
          <div><dt>Account value</dt><dd>{f.usd(w.accountValue)}</dd></div>
          <div><dt>Open notional</dt><dd>{f.usd(openNotional(w))}</dd></div>
          <div><dt>Eff. leverage</dt><dd>{leverage(w.metrics?.effectiveLeverage)}</dd></div>
          <div><dt>Max leverage</dt><dd>{leverage(w.metrics?.maxLeverage)}</dd></div>
          <div><dt>Unrealized PnL</dt><dd>{pnl(unrealized(w))}</dd></div>
          <div><dt>Realized PnL (est.)</dt><dd>{pnl(w.metrics?.realizedPnl)}</dd></div>
          <div><dt>State at</dt><dd>{f.time(w.stateAt)}</dd></div>
        </dl>
        {w.categoryReason && <p class="hint">Category: {w.categoryReason}.</p>}
        <h2>Positions</h2>
        {w.positions.length === 0 ? <p class="status empty">No open position.</p>
          : <SortTable caption="The wallet's positions" rows={w.positions}
            columns={positionColumns} rowKey={(r) => r.symbol} initial="notional" />}
      </>}
    </main>
  );
}
