// The Pair page's footprint section: the footprint of the last bars with the day's volume
// profile beside it, a timeframe and a session to pick, polled within the endpoints' burst
// scope (10 a minute each); below the Whale plan, one sentence saying which plan shows it.
import { useState } from 'preact/hooks';
import { data } from './api.js';
import * as f from './format.js';
import { FootprintChart } from './footprint-chart.js';
import { CANDLES_NOTE } from './footprint-words.js';
import type { Footprint } from './footprint-layout.js';
import { planAllows, planLabel } from './plan-gate.js';
import { profileSummary, type VolumeProfile } from './profile-layout.js';
import { Status, usePoll } from './ui.js';

const TIMEFRAMES = ['5m', '15m', '1h'] as const;
const SESSIONS = [['today', 'Today'], ['yesterday', 'Yesterday']] as const;
/** A 5m bar's footprint changes every trade, but a glance every 15 s is enough to read it. */
const POLL_MS: Record<string, number> = { '5m': 15_000, '15m': 30_000, '1h': 60_000 };
const PROFILE_POLL_MS = 30_000;
const BARS = 60;
const NEEDED = 'Whale';

/** An answer's body: the fields at the top, or inside `data` when enveloped so. */
function body<T>(answer: any): T {
  return (answer && typeof answer === 'object' && 'data' in answer && !('bars' in answer) &&
    !('levels' in answer) ? answer.data : answer) as T;
}

function Views(props: { symbol: string }) {
  const [timeframe, setTimeframe] = useState<string>('5m');
  const [session, setSession] = useState<string>('today');
  const symbol = encodeURIComponent(props.symbol);
  const footprint = usePoll(async () => body<Footprint>(await data(
    `/api/v1/footprint/${symbol}?timeframe=${timeframe}&bars=${BARS}`)), POLL_MS[timeframe],
  [props.symbol, timeframe]);
  const profile = usePoll(async () => body<VolumeProfile>(await data(
    `/api/v1/volume-profile/${symbol}?session=${session}`)), PROFILE_POLL_MS,
  [props.symbol, session]);
  const answer = footprint.value?.timeframe === timeframe ? footprint.value : null;
  const shown = profile.value?.session === undefined || profile.value.session === session
    ? profile.value : null;
  return (
    <>
      <div class="controls fp-controls">
        <div role="group" aria-label="Footprint timeframe" class="controls">
          {TIMEFRAMES.map((t) => <button type="button" aria-pressed={timeframe === t}
            onClick={() => setTimeframe(t)}>{t}</button>)}</div>
        <div role="group" aria-label="Volume profile session" class="controls">
          {SESSIONS.map(([value, label]) => <button type="button"
            aria-pressed={session === value} onClick={() => setSession(value)}>{label}</button>)}
        </div>
      </div>
      <Status error={footprint.error ?? profile.error} loading={answer === null &&
        !footprint.error} />
      {answer !== null && <FootprintChart answer={answer} profile={shown} />}
      {answer !== null && <p class="hint fp-legend">Each bar is a column of price levels of{' '}
        {+answer.levelSize.toPrecision(10)} ({Math.round(answer.levelSize / answer.tickSize)}{' '}
        ticks): sold on the bid x bought on the ask, in {props.symbol}; green where buyers
        traded more, red where sellers did. Outlined: the bar's point of control. A band on a
        bar's edge: a stacked imbalance (right buyers, left sellers). A plain line: {CANDLES_NOTE}.
        Under the bars, each bar's delta.</p>}
      {shown !== null && <p class="hint fp-profile" data-profile>Volume profile, {session}{' '}
        (UTC day), beside the bars on their price scale: {profileSummary(shown, f.price)} Shaded:
        the value area (70 % of the volume around the point of control).</p>}
    </>
  );
}

export function FootprintSection(props: { symbol: string; plan: string | undefined }) {
  const allowed = props.plan === undefined || planAllows(props.plan, NEEDED);
  return (
    <section class="fp-section" aria-labelledby="fp-title">
      <h2 id="fp-title">Footprint and volume profile{!allowed &&
        <span class="plan-badge">{NEEDED}</span>}</h2>
      {allowed ? <Views symbol={props.symbol} /> : <p class="gate-text" data-plan-gate={NEEDED}>
        The footprint (bought and sold volume at each price inside each bar) and the day's volume
        profile are on the {planLabel(NEEDED)} plan; this account is on {props.plan}. An operator
        moves an account with <code>orderflow users set-plan EMAIL {NEEDED}</code>.</p>}
    </section>
  );
}
