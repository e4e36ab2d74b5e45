// Market: the screener, sortable and filterable, refreshed every 10 s with ETag revalidation.
import { useState } from 'preact/hooks';
import { data } from '../api.js';
import * as f from '../format.js';
import { Cadence, Link, SortTable, Status, usePoll, type Column } from '../ui.js';

interface Row {
  symbol: string; price: number; change24h: number; volume24h: number; openInterest: number;
  fundingAnnualized: number; tracked: boolean; stale: boolean; delisted: boolean;
}

const columns: Column<Row>[] = [
  { key: 'symbol', label: 'Pair', value: (r) => r.symbol,
    render: (r) => <Link href={`/pair/${encodeURIComponent(r.symbol)}`}>{r.symbol}</Link> },
  { key: 'price', label: 'Price', numeric: true, value: (r) => r.price,
    render: (r) => f.price(r.price) },
  { key: 'change24h', label: '24h', numeric: true, value: (r) => r.change24h,
    render: (r) => <span class={f.signClass(r.change24h)}>{f.pct(r.change24h)}</span> },
  { key: 'volume24h', label: 'Volume 24h', numeric: true, value: (r) => r.volume24h,
    render: (r) => f.usd(r.volume24h) },
  { key: 'openInterest', label: 'Open interest', numeric: true, value: (r) => r.openInterest,
    render: (r) => f.usd(r.openInterest) },
  { key: 'fundingAnnualized', label: 'Funding APR', numeric: true,
    value: (r) => r.fundingAnnualized,
    render: (r) => (
      <span class={f.signClass(r.fundingAnnualized)}>{f.pct(r.fundingAnnualized)}</span>) },
];

export function Market() {
  const [filter, setFilter] = useState('');
  const [trackedOnly, setTrackedOnly] = useState(false);
  const { value, error, nextMs } = usePoll(() => data<{ pairs: Row[] }>('/api/v1/screener'),
    10_000);
  const rows = (value?.pairs ?? []).filter((r) => !r.delisted &&
    r.symbol.toLowerCase().includes(filter.trim().toLowerCase()) && (!trackedOnly || r.tracked));
  return (
    <main id="main">
      <header class="page-head">
        <h1>Market</h1>
        <div class="controls">
          <label for="filter" class="sr-only">Filter pairs</label>
          <input id="filter" type="search" placeholder="Filter pairs" value={filter}
            onInput={(e) => setFilter((e.target as HTMLInputElement).value)} />
          <label><input type="checkbox" checked={trackedOnly}
            onChange={(e) => setTrackedOnly((e.target as HTMLInputElement).checked)} />
            {' '}Tracked only</label>
          <Cadence nextMs={nextMs} minMs={10_000} />
        </div>
      </header>
      <Status error={error} loading={!value && !error}
        empty={value && rows.length === 0 ? 'No pair matches the filter.' : undefined} />
      {rows.length > 0 && <SortTable caption="Screener" rows={rows} columns={columns}
        rowKey={(r) => r.symbol} initial="volume24h" />}
    </main>
  );
}
