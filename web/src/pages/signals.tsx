// Signals (Trader plan and above): the live entry signals per pair, and the track record once
// history exists; the track record reads the stored history, so it needs the Pro plan.
import { ApiError, data } from '../api.js';
import * as f from '../format.js';
import { PlanGate, planAllows, planLabel } from '../plan-gate.js';
import { TrackRecordPanel } from '../track-record-panel.js';
import type { Performance } from '../track-record.js';
import { Link, SortTable, Status, usePoll, type Column } from '../ui.js';

type Signal = Record<string, any> & { symbol: string };

const columns: Column<Signal>[] = [
  { key: 'symbol', label: 'Pair', value: (s) => s.symbol,
    render: (s) => <Link href={`/pair/${encodeURIComponent(s.symbol)}`}>{s.symbol}</Link> },
  { key: 'direction', label: 'Direction', value: (s) => String(s.direction ?? '—'),
    render: (s) => <span class={f.signClass(s.direction === 'LONG' ? 1
      : s.direction === 'SHORT' ? -1 : 0)}>{String(s.direction ?? '—')}</span> },
  { key: 'score', label: 'Score', numeric: true, value: (s) => s.score ?? null,
    render: (s) => <span class={f.signClass(s.score)}>{f.num(s.score, 0)}</span> },
  { key: 'vpin', label: 'VPIN', numeric: true, value: (s) => s.vpin ?? null,
    render: (s) => f.num(s.vpin, 3) },
  { key: 'cvd', label: 'CVD', numeric: true, value: (s) => s.cvd ?? null,
    render: (s) => f.usd(s.cvd) },
  { key: 'fundingAnnualized', label: 'Funding APR', numeric: true,
    value: (s) => s.fundingAnnualized ?? null, render: (s) => f.pct(s.fundingAnnualized) },
  { key: 'regime', label: 'Regime', value: (s) => String(s.regime ?? '—') },
];

function flatten(body: any): Signal[] {
  const pairs = body?.pairs ?? body?.signals ?? body;
  if (Array.isArray(pairs)) return pairs;
  return Object.entries(pairs ?? {}).map(([symbol, value]) => ({ symbol, ...(value as object) }));
}

/** The lowest plans of the live signals and of the track record (the service's plan table). */
const LIVE_PLAN = 'Trader';
const RECORD_PLAN = 'Pro';

export function Signals(props: { plan: string }) {
  return (
    <PlanGate plan={props.plan} needed={LIVE_PLAN} title="Signals" layout={['table', 'table']}
      what={'each tracked pair\'s live entry signal (direction, score, VPIN, CVD, funding and ' +
        'regime) and, from the Pro plan, the track record of the last 30 days by grade'}>
      <SignalsPage plan={props.plan} />
    </PlanGate>
  );
}

function SignalsPage(props: { plan: string }) {
  const live = usePoll(() => data('/api/v1/signals'), 10_000);
  const rows = flatten(live.value);
  return (
    <main id="main">
      <header class="page-head"><h1>Signals</h1></header>
      <Status error={live.error} loading={!live.value && !live.error}
        empty={live.value && rows.length === 0 ? 'No live signal right now.' : undefined} />
      {rows.length > 0 && <SortTable caption="Live signals" rows={rows} columns={columns}
        rowKey={(s) => s.symbol} initial="score" />}
      <section aria-labelledby="track-title">
      <h2 id="track-title">Track record (30 days){!planAllows(props.plan, RECORD_PLAN) &&
        <span class="plan-badge">{RECORD_PLAN}</span>}</h2>
      {planAllows(props.plan, RECORD_PLAN) ? <TrackRecord /> :
        <p class="gate-text" data-plan-gate={RECORD_PLAN}>The track record (each grade's
          expectancy, hit rate and edge over the baselines, from the stored outcomes) is on the
          {' '}{planLabel(RECORD_PLAN)} plan; this account is on {props.plan}. An operator moves
          an account with <code>orderflow users set-plan EMAIL {RECORD_PLAN}</code>.</p>}
      </section>
    </main>
  );
}

function TrackRecord() {
  const record = usePoll(async () => {
    try {
      return await data<Performance>('/api/v1/signals/performance?window=30d&groupBy=grade');
    } catch (error) {
      if (error instanceof ApiError && error.problem.status === 404) return { groups: [] } as Performance;
      // Not computed yet (a service just started): a state of the service, not an error.
      if (error instanceof ApiError && error.problem.status === 503) {
        return { groups: [], computing: true } as Performance;
      }
      throw error;
    }
  }, 60_000);
  const answer = record.value;
  return (
    <>
      <Status error={record.error} loading={!answer && !record.error}
        empty={answer?.computing ? 'The track record is being computed (the service has just ' +
          'started); this page asks again within a minute.' : undefined} />
      {answer && !answer.computing && <TrackRecordPanel answer={answer} />}
    </>
  );
}
