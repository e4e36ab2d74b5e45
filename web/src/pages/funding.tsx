// Funding arb: per pair, where to hold the long and the short, and the annualized spread.
import { data } from '../api.js';
import * as f from '../format.js';
import { PlanGate } from '../plan-gate.js';
import { Link, SortTable, Status, usePoll, type Column } from '../ui.js';

interface Item { symbol: string; longVenue: string; shortVenue: string; spreadAnnualized: number }

const columns: Column<Item>[] = [
  { key: 'symbol', label: 'Pair', value: (r) => r.symbol,
    render: (r) => <Link href={`/pair/${encodeURIComponent(r.symbol)}`}>{r.symbol}</Link> },
  { key: 'longVenue', label: 'Long on', value: (r) => r.longVenue },
  { key: 'shortVenue', label: 'Short on', value: (r) => r.shortVenue },
  { key: 'spreadAnnualized', label: 'Spread APR', numeric: true,
    value: (r) => r.spreadAnnualized, render: (r) => f.pct(r.spreadAnnualized) },
];

export function Funding(props: { plan: string }) {
  return (
    <PlanGate plan={props.plan} needed="Whale" title="Funding arb" layout={['table']}
      what={'for each pair, the venue to hold the long on, the venue to hold the short on and ' +
        'the annualized funding spread between them'}>
      <FundingTable />
    </PlanGate>
  );
}

function FundingTable() {
  const { value, error } = usePoll(() => data('/api/v1/funding-arb'), 15_000);
  const items: Item[] = value?.items ?? value?.pairs ?? (Array.isArray(value) ? value : []);
  return (
    <main id="main">
      <header class="page-head"><h1>Funding arb</h1></header>
      <Status error={error} loading={!value && !error}
        empty={value && items.length === 0 ? 'No funding spread to show yet.' : undefined} />
      {items.length > 0 && <SortTable caption="Funding arbitrage" rows={items} columns={columns}
        rowKey={(r) => r.symbol} initial="spreadAnnualized" />}
    </main>
  );
}
