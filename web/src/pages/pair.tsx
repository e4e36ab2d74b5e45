// Pair: price candles with CVD, VPIN and open interest below (uPlot, cursors synced), zoom by
// dragging, time range buttons. Reads the history API at a resolution fit for the range; on a
// plan below it, the page draws what the service holds: the CVD history and the pair's figures
// as they come in. An untracked pair says so and shows its figures; an unknown symbol says so
// once and asks nothing more.
import { useEffect, useRef, useState } from 'preact/hooks';
import uPlot from 'uplot';
import { ApiError, data } from '../api.js';
import * as f from '../format.js';
import { FootprintSection } from '../footprint-section.js';
import { nextPollMs } from '../pace.js';
import { candleExtent, candlePlugin, chartOptions, css, dayMarksPlugin, legend, type ChartSpec }
  from '../pair-charts.js';
import { cvdHistory, history } from '../pair-history.js';
import { continuousCvd, RANGES, spacings, type Point } from '../pair-series.js';
import { Untracked } from '../pair-untracked.js';
import { Link, Status } from '../ui.js';

/** What the symbol is: not yet known, not a listed pair, listed but untracked, or tracked. */
type Kind = 'loading' | 'unknown' | 'untracked' | 'tracked';

const CVD_RESET_LABEL = 'CVD reset 00:00 UTC';

/** The page's theme (html data-theme), so the charts are drawn again in its colours. */
function useTheme(): string {
  const [theme, setTheme] = useState(document.documentElement.dataset.theme ?? '');
  useEffect(() => {
    const root = document.documentElement;
    const watch = new MutationObserver(() => setTheme(root.dataset.theme ?? ''));
    watch.observe(root, { attributes: true, attributeFilter: ['data-theme'] });
    return () => watch.disconnect();
  }, []);
  return theme;
}

export function Pair(props: { symbol: string; at: string | null; plan?: string }) {
  const [kind, setKind] = useState<Kind>('loading');
  const [points, setPoints] = useState<Point[]>([]);
  const [source, setSource] = useState<'history' | 'live' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [latest, setLatest] = useState<any>(null);
  const [range, setRange] = useState<number>(props.at ? 14_400 : 0);
  const [continuous, setContinuous] = useState(false);
  const boxes = useRef<HTMLDivElement>(null);
  const plots = useRef<uPlot[]>([]);
  const held = useRef<Point[]>([]);
  const resetLabel = useRef<string | null>(CVD_RESET_LABEL);
  held.current = points;
  resetLabel.current = continuous ? null : CVD_RESET_LABEL;
  const atSeconds = props.at ? Date.parse(props.at) / 1000 : null;
  const theme = useTheme();

  // The pair first: it says whether the symbol is listed and tracked, and nothing more is
  // asked about a symbol that is not listed (its every request would be a 404).
  useEffect(() => {
    let alive = true;
    setKind('loading');
    setSource(null);
    setPoints([]);
    setError(null);
    data(`/api/v1/pair/${encodeURIComponent(props.symbol)}`).then((pair) => {
      if (!alive) return;
      setLatest(pair);
      setKind(pair.tracked === false ? 'untracked' : 'tracked');
    }, (e) => {
      if (!alive) return;
      const status = e instanceof ApiError ? e.problem.status : 0;
      if (status === 404) setKind('unknown');
      setError(status === 404 ? `${props.symbol} is not a listed pair. The Market page lists ` +
        'every pair (a ticker such as BTC, or a builder market such as xyz:TSLA).'
        : (e as Error).message);
    });
    return () => { alive = false; };
  }, [props.symbol]);

  // The range's history, read again when the range changes (each at its own resolution).
  useEffect(() => {
    if (kind !== 'tracked' || source === 'live') return;
    let alive = true;
    history(props.symbol, range, atSeconds).then((past) => {
      if (!alive) return;
      if (past === null) {
        setSource('live');
        return;
      }
      setPoints(past);
      setSource('history');
    }, (e) => { if (alive) setError((e as Error).message); });
    return () => { alive = false; };
  }, [props.symbol, kind, range]);

  // Below the history's plan: the CVD the service holds, then the figures every 5 s or slower.
  useEffect(() => {
    if (source !== 'live') return;
    let alive = true;
    let timer = 0;
    const poll = async () => {
      try {
        const pair = await data(`/api/v1/pair/${encodeURIComponent(props.symbol)}`);
        if (!alive) return;
        setLatest(pair);
        setPoints((old) => [...old, { t: Date.now() / 1000, open: pair.price, close: pair.price,
          high: pair.price, low: pair.price, vpin: pair.vpin, openInterest: pair.openInterest,
          cvd: pair.cvd ?? null }].slice(-2_000));
        setError(null);
      } catch (e) {
        if (alive) setError((e as Error).message);
      }
      if (alive) timer = window.setTimeout(poll, await nextPollMs(5_000));
    };
    void cvdHistory(props.symbol).then((cvd) => {
      if (!alive) return;
      setPoints(cvd);
      void poll();
    });
    return () => { alive = false; clearTimeout(timer); };
  }, [props.symbol, source]);

  useEffect(() => {
    const box = boxes.current;
    if (!box || source === null) return;
    const width = Math.max(280, box.clientWidth);
    const specs: ChartSpec[] = [
      { title: 'Price (USD)', height: 300, unit: 'plain', series: { label: 'Close',
        stroke: css('--accent'), width: 1, value: legend(f.price) },
      plugins: [candlePlugin(() => held.current), dayMarksPlugin(() => null)],
      extent: candleExtent(() => held.current) },
      { title: 'CVD (USD)', height: 170, unit: 'usd', series: { label: 'CVD',
        stroke: css('--accent2'), width: 1.5, value: legend(f.usd) },
      plugins: [dayMarksPlugin(() => resetLabel.current)] },
      { title: 'VPIN', height: 140, unit: 'plain', series: { label: 'VPIN',
        stroke: css('--warn'), width: 1.5, value: legend((v) => f.num(v, 3)) },
      plugins: [dayMarksPlugin(() => null)] },
      { title: 'Open interest (USD)', height: 140, unit: 'usd', series: { label: 'OI',
        stroke: css('--muted'), width: 1.5, value: legend(f.usd) },
      plugins: [dayMarksPlugin(() => null)] },
    ];
    plots.current = specs.map((spec) => new uPlot(chartOptions(spec, width), [[], []], box));
    return () => { plots.current.forEach((p) => p.destroy()); plots.current = []; };
  }, [source, theme]);

  useEffect(() => {
    const shown = continuous ? continuousCvd(points) : points;
    const xs = shown.map((p) => p.t);
    const columns: (keyof Point)[] = ['close', 'cvd', 'vpin', 'openInterest'];
    if (xs.length === 0) return;
    // One time axis for all four charts, so a bar lines up with its CVD, VPIN and OI below.
    const last = xs[xs.length - 1];
    const end = range > 0 && atSeconds !== null ? Math.min(atSeconds + range / 2, last) : last;
    const start = range > 0 ? end - range : xs[0];
    const span = end - start < 60 ? { min: end - 900, max: end + 60 } : { min: start, max: end };
    // The span drawn, in the page for tools (and tests) that cannot read a canvas.
    const box = boxes.current;
    const iso = (seconds: number) => new Date(seconds * 1000).toISOString();
    if (box) {
      box.dataset.from = iso(span.min);
      box.dataset.to = iso(span.max);
      box.dataset.points = String(xs.length);
      // "step count from to" per spacing, widest first: "All" is hours, then minutes.
      box.dataset.spacing = spacings(xs).map((s) =>
        `${s.stepSeconds} ${s.count} ${iso(s.fromSeconds)} ${iso(s.toSeconds)}`).join('|');
    }
    const drawStart = performance.now();
    plots.current.forEach((plot, i) => {
      // Each chart gets the points that carry its series: in the live fallback the CVD history
      // reaches back hours while the other figures start when the page opened.
      const own = shown.filter((p) => typeof p[columns[i]] === 'number');
      plot.setData([own.map((p) => p.t), own.map((p) => p[columns[i]] as number)], false);
      plot.setScale('x', span);
    });
    // uPlot draws in a microtask queued by setScale: this one runs after the four draws.
    queueMicrotask(() => performance.measure('pair charts drawn', { start: drawStart }));
  }, [points, range, source, continuous, theme]);

  return (
    <main id="main">
      <header class="page-head">
        <h1>{props.symbol}</h1>
        {kind === 'tracked' &&
          <Link href={`/pair/${encodeURIComponent(props.symbol)}/deep`}>Deep view</Link>}
        {kind !== 'unknown' && <dl class="figures">
          <div><dt>Price</dt><dd>{f.price(latest?.price)}</dd></div>
          <div><dt>24h</dt>
            <dd class={f.signClass(latest?.change24h)}>{f.pct(latest?.change24h)}</dd></div>
          {kind !== 'untracked' && <div><dt>VPIN</dt><dd>{f.num(latest?.vpin, 3)}</dd></div>}
          <div><dt>OI</dt><dd>{f.usd(latest?.openInterest)}</dd></div>
        </dl>}
        {kind === 'tracked' && <div class="controls" role="group" aria-label="Time range">
          {RANGES.map(([label, seconds]) => (
            <button type="button" aria-pressed={range === seconds}
              onClick={() => setRange(seconds)}>{label}</button>))}
          <label class="toggle"><input type="checkbox" id="cvd-continuous" checked={continuous}
            onChange={(e) => setContinuous((e.target as HTMLInputElement).checked)} />
            Continuous CVD</label>
        </div>}
      </header>
      {props.at && <p class="hint">Signal bar at {f.time(props.at)}.</p>}
      {kind === 'untracked' && <Untracked symbol={props.symbol} pair={latest} />}
      {source === 'live' && <p class="hint">No stored history on this plan: the charts show the
        CVD the service holds and the figures since this page opened.</p>}
      <Status error={error} loading={kind === 'loading' ||
        (kind === 'tracked' && source === null && !error)} />
      {kind === 'tracked' && <>
        <p class="hint">CVD starts at 0 at 00:00 UTC each day (the dashed lines);
          {continuous ? ' shown here cumulated across the days.'
            : ' tick Continuous CVD to add the days up.'}</p>
        <div class="charts" ref={boxes} aria-label={`${props.symbol} charts`} role="img" />
        <p class="hint">Drag across a chart to zoom; double-click to reset.</p>
        <FootprintSection symbol={props.symbol} plan={props.plan} />
      </>}
    </main>
  );
}
