// Smart money (Pro plan and above): the tracked wallets' open positions, summed by category
// (long, short, net) and listed, filtered by pair and category; each wallet links to its page.
import { useState } from 'preact/hooks';
import { data } from '../api.js';
import { CATEGORIES, categoryLabel, categoryRows } from '../categories.js';
import { CategoryTable } from '../category-table.js';
import * as f from '../format.js';
import { PlanGate } from '../plan-gate.js';
import { Link, SortTable, Status, usePoll, type Column } from '../ui.js';
import { WalletLink } from '../wallet-link.js';

interface Position { address: string; label: string | null; category: string;
  accountValue: number; symbol: string; side: string; notional: number; leverage: number;
  entryPrice: number; unrealizedPnl: number }

const columns: Column<Position>[] = [
  { key: 'address', label: 'Wallet', value: (r) => r.label ?? r.address,
    render: (r) => <WalletLink address={r.address} label={r.label} /> },
  { key: 'category', label: 'Category', value: (r) => r.category,
    render: (r) => categoryLabel(r.category) },
  { key: 'symbol', label: 'Pair', value: (r) => r.symbol,
    render: (r) => <Link href={`/pair/${encodeURIComponent(r.symbol)}/deep`}>{r.symbol}</Link> },
  { key: 'side', label: 'Side', value: (r) => r.side,
    render: (r) => <span class={r.side === 'long' ? 'up' : 'down'}>{r.side}</span> },
  { key: 'notional', label: 'Notional', numeric: true, value: (r) => r.notional,
    render: (r) => f.usd(r.notional) },
  { key: 'leverage', label: 'Leverage', numeric: true, value: (r) => r.leverage,
    render: (r) => `${f.num(r.leverage, 1)}×` },
  { key: 'entryPrice', label: 'Entry', numeric: true, value: (r) => r.entryPrice,
    render: (r) => f.price(r.entryPrice) },
  { key: 'unrealizedPnl', label: 'Unrealized PnL', numeric: true, value: (r) => r.unrealizedPnl,
    render: (r) => <span class={f.signClass(r.unrealizedPnl)}>{f.usd(r.unrealizedPnl)}</span> },
  { key: 'accountValue', label: 'Account value', numeric: true, value: (r) => r.accountValue,
    render: (r) => f.usd(r.accountValue) },
];

/** Long and short notional by category over the positions. */
function sums(positions: Position[]) {
  const long: Record<string, number> = {};
  const short: Record<string, number> = {};
  for (const p of positions) {
    const side = p.side === 'long' ? long : short;
    side[p.category] = (side[p.category] ?? 0) + p.notional;
  }
  return categoryRows(long, short);
}

export function SmartMoney(props: { plan: string; symbol: string | null }) {
  return (
    <PlanGate plan={props.plan} needed="Pro" title="Smart money" layout={['figures', 'table']}
      what={'the tracked wallets\' open positions summed long, short and net by category ' +
        '(funds, smart money, directional whales, market makers, degens, insiders), and each ' +
        'position with its leverage, entry and unrealized PnL'}>
      <SmartMoneyPage symbol={props.symbol} />
    </PlanGate>
  );
}

function SmartMoneyPage(props: { symbol: string | null }) {
  const { value, error } = usePoll(() => data('/api/v1/smart-money'), 30_000);
  const [symbol, setSymbol] = useState(props.symbol ?? '');
  const [category, setCategory] = useState('');
  const all: Position[] = value?.positions ?? [];
  const symbols = [...new Set(all.map((p) => p.symbol))].sort();
  const shown = all.filter((p) => (!symbol || p.symbol === symbol) &&
    (!category || p.category === category));
  const rows = sums(shown);
  const net = rows.reduce((sum, r) => sum + r.net, 0);
  return (
    <main id="main">
      <header class="page-head"><h1>Smart money</h1>
        <div class="controls">
          <label for="sm-symbol">Pair</label>
          <select id="sm-symbol" value={symbol}
            onChange={(e) => setSymbol((e.target as HTMLSelectElement).value)}>
            <option value="">All pairs</option>
            {[...new Set([...symbols, ...(symbol ? [symbol] : [])])].map((s) =>
              <option value={s}>{s}</option>)}
          </select>
          <label for="sm-category">Category</label>
          <select id="sm-category" value={category}
            onChange={(e) => setCategory((e.target as HTMLSelectElement).value)}>
            <option value="">All categories</option>
            {CATEGORIES.map((c) => <option value={c}>{categoryLabel(c)}</option>)}
          </select>
          {symbol && <Link href={`/pair/${encodeURIComponent(symbol)}/deep`}>
            {symbol} deep view</Link>}
          <Link href="/wallets">All wallets</Link>
        </div>
      </header>
      <Status error={error} loading={!value && !error}
        empty={value && shown.length === 0 ? (all.length === 0
          ? 'No tracked wallet has an open position yet.'
          : 'No position matches the filters.') : undefined} />
      {value && <dl class="figures">
        <div><dt>Wallets with a state</dt><dd>{value.wallets}</dd></div>
        <div><dt>Positions shown</dt><dd>{shown.length}</dd></div>
        <div><dt>Net (long − short)</dt><dd class={f.signClass(net)}>{f.usd(net)}</dd></div>
      </dl>}
      {rows.length > 0 && <>
        <h2 id="by-category">By category</h2>
        <CategoryTable labelledBy="by-category" rows={rows} />
      </>}
      {shown.length > 0 && <>
        <h2>Positions</h2>
        <SortTable caption="Tracked wallets' positions" rows={shown} columns={columns}
          rowKey={(r) => `${r.address}${r.symbol}`} initial="notional" />
      </>}
    </main>
  );
}
