// Funding arb: per pair, where to hold the long and the short, the annualized spread, and the
// home venue's open interest and volume to judge whether the spread is tradable; filtered by
// default to pairs with $1 M of open interest or more, with the number hidden said.
import { useState } from 'preact/hooks';
import { data } from '../api.js';
import * as f from '../format.js';
import { PlanGate } from '../plan-gate.js';
import { Cadence, Link, SortTable, Status, usePoll, type Column } from '../ui.js';
import './funding.css';

interface Item {
  symbol: string; longVenue: string; shortVenue: string; spreadAnnualized: number;
  openInterest: number | null; volume24h: number | null; tracked: boolean;
}

const columns: Column<Item>[] = [
  { key: 'symbol', label: 'Pair', value: (r) => r.symbol,
    render: (r) => <Link href={`/pair/${encodeURIComponent(r.symbol)}`}>{r.symbol}</Link> },
  { key: 'longVenue', label: 'Long on', value: (r) => r.longVenue },
  { key: 'shortVenue', label: 'Short on', value: (r) => r.shortVenue },
  { key: 'spreadAnnualized', label: 'Spread APR', numeric: true,
    value: (r) => r.spreadAnnualized, render: (r) => f.pct(r.spreadAnnualized) },
  { key: 'openInterest', label: 'Open interest', numeric: true, value: (r) => r.openInterest,
    render: (r) => f.usd(r.openInterest) },
  { key: 'volume24h', label: 'Volume 24h', numeric: true, value: (r) => r.volume24h,
    render: (r) => f.usd(r.volume24h) },
  { key: 'tracked', label: 'Tracked', value: (r) => (r.tracked ? 1 : 0),
    render: (r) => (r.tracked ? 'yes' : '') },
];

/** Thresholds offered for open interest and volume, USD (0: no floor). */
const FLOORS_USD = [0, 100_000, 1e6, 1e7, 1e8];
/** Below $1 M of open interest a spread rarely takes a position of any size. */
const OPEN_INTEREST_MIN_USD = 1e6;

interface Filter {
  openInterestMin: number; volumeMin: number; spreadMinPct: number; search: string;
  trackedOnly: boolean;
}

const initialFilter: Filter = { openInterestMin: OPEN_INTEREST_MIN_USD, volumeMin: 0,
  spreadMinPct: 0, search: '', trackedOnly: false };

/** A null open interest or volume (pair not in the universe) passes only a floor of 0. */
export function passes(row: Item, filter: Filter): boolean {
  const search = filter.search.trim().toLowerCase();
  return (filter.openInterestMin === 0 || (row.openInterest ?? 0) >= filter.openInterestMin) &&
    (filter.volumeMin === 0 || (row.volume24h ?? 0) >= filter.volumeMin) &&
    Math.abs(row.spreadAnnualized) >= filter.spreadMinPct &&
    (!filter.trackedOnly || row.tracked) &&
    (search === '' || row.symbol.toLowerCase().includes(search));
}

function FloorSelect(props: { id: string; label: string; value: number;
  onChange: (value: number) => void }) {
  return (
    <label for={props.id}>{props.label}{' '}
      <select id={props.id} value={String(props.value)}
        onChange={(e) => props.onChange(Number((e.target as HTMLSelectElement).value))}>
        {FLOORS_USD.map((usd) => <option value={String(usd)}>{usd === 0 ? 'any' : f.usd(usd)}
        </option>)}
      </select>
    </label>
  );
}

function Filters(props: { filter: Filter; onChange: (filter: Filter) => void }) {
  const { filter } = props;
  const set = (part: Partial<Filter>) => props.onChange({ ...filter, ...part });
  return (
    <form class="controls filters" role="search" aria-label="Filter pairs"
      onSubmit={(e) => e.preventDefault()}>
      <label for="arb-search" class="sr-only">Search pairs</label>
      <input id="arb-search" type="search" placeholder="Search pairs" value={filter.search}
        onInput={(e) => set({ search: (e.target as HTMLInputElement).value })} />
      <FloorSelect id="arb-oi" label="Min open interest" value={filter.openInterestMin}
        onChange={(openInterestMin) => set({ openInterestMin })} />
      <FloorSelect id="arb-volume" label="Min volume 24h" value={filter.volumeMin}
        onChange={(volumeMin) => set({ volumeMin })} />
      <label for="arb-spread">Min |spread| APR %{' '}
        <input id="arb-spread" type="number" min="0" step="1" inputMode="decimal" class="narrow"
          value={filter.spreadMinPct || ''} placeholder="0"
          onInput={(e) => {
            const value = Number((e.target as HTMLInputElement).value);
            set({ spreadMinPct: Number.isFinite(value) && value > 0 ? value : 0 });
          }} />
      </label>
      <label><input type="checkbox" checked={filter.trackedOnly}
        onChange={(e) => set({ trackedOnly: (e.target as HTMLInputElement).checked })} />
        {' '}Tracked only</label>
    </form>
  );
}

export function Funding(props: { plan: string }) {
  return (
    <PlanGate plan={props.plan} needed="Whale" title="Funding arb" layout={['table']}
      what={'for each pair, the venue to hold the long on, the venue to hold the short on, ' +
        'the annualized funding spread between them and the pair\'s open interest and volume'}>
      <FundingTable />
    </PlanGate>
  );
}

function FundingTable() {
  const [filter, setFilter] = useState(initialFilter);
  const { value, error, nextMs } = usePoll(() => data('/api/v1/funding-arb'), 15_000);
  const items: Item[] = value?.pairs ?? [];
  const rows = items.filter((r) => passes(r, filter));
  const hidden = items.length - rows.length;
  return (
    <main id="main">
      <header class="page-head">
        <h1>Funding arb</h1>
        <Cadence nextMs={nextMs} minMs={15_000} />
      </header>
      <Filters filter={filter} onChange={setFilter} />
      <p class="hint filter-count" aria-live="polite">
        {value ? `${rows.length} of ${items.length} pairs shown` : ''}
        {hidden > 0 && <>{' · '}<strong data-hidden={hidden}>{hidden} hidden by filter</strong>
          {' '}<button type="button" class="link" onClick={() => setFilter({ ...initialFilter,
            openInterestMin: 0 })}>Show all</button></>}
      </p>
      <Status error={error} loading={!value && !error}
        empty={value && items.length === 0 ? 'No funding spread to show yet: the venues\' ' +
          'funding rates arrive with the next universe poll.'
          : value && rows.length === 0 ? 'No pair passes the filter.' : undefined} />
      {rows.length > 0 && <SortTable caption="Funding arbitrage" rows={rows} columns={columns}
        rowKey={(r) => r.symbol} initial="spreadAnnualized" />}
    </main>
  );
}
