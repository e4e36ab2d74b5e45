// The main thread's side of signals and alerts: closed bars into the store, entry signals claimed
// once and delivered to the endpoints of matching Entry Signal alerts, their 4-hour outcomes, and
// alert.triggered firings, all through the webhook supervisor's outbox.
import type { RootDatabase } from 'lmdb';
import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import type { Bar, KeyDirectory, PairOutbound } from '../../core/messages.js';
import { openBarStore } from '../../persistence/bars.js';
import { openSignalStore, type SignalStore } from '../../persistence/signals.js';
import { openAlertStore } from '../../persistence/alerts.js';
import {
  signalTimeMs, TIMEFRAME_MS, type EntrySignal, type SignalOutcome,
} from '../signals/types.js';
import { createOutcomeScheduler } from '../signals/outcome-scheduler.js';
import { OUTCOME_HORIZON_MS } from '../signals/outcome.js';
import { EvidenceGrader } from '../signals/evidence-grader.js';
import {
  buildAlertPayload, createAlertEngine, matchEntrySignalAlerts, type AlertFire, type AlertRecord,
  type ScreenerRow,
} from '../signals/alerts.js';
import { eventIdForSignal } from '../webhooks/ids.js';
import type { WebhookSupervisor } from '../webhooks/supervisor.js';
import type { BackfillState } from '../feed/home/backfill-rounds.js';

/**
 * Warm-up signals held at most (a 168 h warm-up of 100 pairs makes about 5,000); past it they
 * are graded on arrival with the outcomes evaluated so far.
 */
const PAST_HELD_MAX = 50_000;
/** Store writes of the graded past in flight at once (lmdb commits them together). */
const PAST_WRITES_PER_BATCH = 500;

export interface SignalPipelineDeps {
  readonly root: RootDatabase;
  /** Where the 5m bars and the signals live (the store's bulk environment); `root` if absent. */
  readonly bulkRoot?: RootDatabase;
  readonly webhooks: WebhookSupervisor;
  readonly keys: KeyDirectory;
  /** The service (delivery) clock. */
  readonly clock: Clock;
  readonly logger: Logger;
  readonly chartBaseUrl: string;
  /** The pair's annualized funding (percent) for alert payloads, or null. */
  readonly fundingAnnualizedPct: (symbol: string) => number | null;
}

export class SignalPipeline {
  private readonly bars;
  private readonly signals;
  private readonly alertStore;
  private readonly scheduler;
  private readonly engine = createAlertEngine();
  /** Walk-forward evidence grades, rebuilt from the stored outcomes at start. */
  private readonly grader = new EvidenceGrader();
  private alerts: AlertRecord[] = [];
  private alertsVersion = -1;
  /** Newest market time seen: outcomes are due in market time (docs/decisions.md). */
  private marketNowMs = 0;
  /**
   * Per pair, the newest market time its items carried: a warm-up or a backfill moves pairs
   * forward in slices, so one pair's bars can trail the newest pair's time by hours.
   */
  private readonly pairNowMs = new Map<string, number>();
  /** The outcome evaluation running (its slices span turns), awaited by close(). */
  private evaluation: Promise<number> | null = null;
  private closed = false;
  /** Entry signals graded since start, by timeframe then grade (metrics; both lists short). */
  readonly signalCounts: Record<string, Record<string, number>> = {};
  /**
   * Market time the simulator's warm-up ends: bars, signals and alert state before it are the
   * past (stored, remembered) and no webhook is sent for them (docs/decisions.md, Warm start).
   */
  private warmupEndMs = 0;
  /**
   * Live backfill: per pair, the service time its first fill settled and its held trades went
   * in; null while it fills. Bars and signals that closed before it are the past too: a pair
   * late for its fill folds minutes of held trades at once (docs/feeds.md, Backfill).
   */
  private readonly liveFromMs = new Map<string, number | null>();
  /**
   * The warm-up's signals, held ungraded until its past is all in (`setPastSettled`): the
   * warm-up replays a week in a minute, before any of its outcomes is evaluated, so graded on
   * arrival every one of them had the rule grade. Graded then in market-time order, each from
   * the outcomes due before its bar, as a service that had run through that week would have.
   */
  private readonly heldPast: EntrySignal[] = [];
  private pastSettled: (() => boolean) | null = null;
  private pastGraded = false;
  /** Held signals being graded now (they count as held until stored). */
  private pastGrading = 0;

  constructor(private readonly deps: SignalPipelineDeps) {
    this.bars = openBarStore(deps.bulkRoot ?? deps.root);
    this.signals = openSignalStore<EntrySignal>(deps.bulkRoot ?? deps.root);
    this.alertStore = openAlertStore<AlertRecord>(deps.root);
    this.scheduler = createOutcomeScheduler(this.signals, this.bars);
    this.grader.rebuild(this.signals.list());
    this.reloadAlerts();
  }

  /** The stored signals and their outcomes, read by the track record (signals/history). */
  get signalStore(): SignalStore<EntrySignal> {
    return this.signals;
  }

  /** Picks up alerts added or removed by the admin command line (polled, like keys). */
  reloadAlerts(): void {
    const version = this.alertStore.version();
    if (version === this.alertsVersion) return;
    this.alertsVersion = version;
    this.alerts = this.alertStore.list();
    this.engine.setAlerts(this.alerts);
  }

  setWarmupEnd(marketMs: number): void {
    this.warmupEndMs = marketMs;
  }

  /**
   * Holds the warm-up's signals until `settled` says its past (bars and signals) is all in;
   * without it (tests, replay) they are graded on arrival with the outcomes evaluated so far.
   */
  setPastSettled(settled: () => boolean): void {
    this.pastSettled = settled;
  }

  /** Warm-up signals held for grading (0 once the past is graded). */
  get pastHeld(): number {
    return this.heldPast.length + this.pastGrading;
  }

  /** A pair's live backfill state (BackfillReport.state): see `liveFromMs`. */
  onBackfill(symbol: string, state: BackfillState): void {
    const liveFromMs = this.liveFromMs.get(symbol);
    if (state === 'filled' || state === 'unfilled') {
      // Only the first fill: a reconnect's refill does not move the boundary.
      if (liveFromMs === undefined || liveFromMs === null) {
        this.liveFromMs.set(symbol, this.deps.clock.nowMs());
      }
    } else if (liveFromMs === undefined) this.liveFromMs.set(symbol, null);
  }

  /**
   * Market time up to which a pair's 5m bars are all in: its own while it catches up (warm-up,
   * first fill), so an outcome does not give up on bars still to come; once it runs live, the
   * shared market time (a quiet pair's missing bars are then truly missing). A pair not seen
   * by this process (pending from before a restart) has the shared time, as before.
   */
  private barsUntilMs(symbol: string): number {
    const pairMs = this.pairNowMs.get(symbol);
    if (pairMs === undefined) return this.marketNowMs;
    const catchingUp = pairMs < this.warmupEndMs || this.liveFromMs.get(symbol) === null;
    return catchingUp ? pairMs : Math.max(pairMs, this.marketNowMs);
  }

  /** Closed at `closeMs`: inside the warm-up, or before the pair's first fill went live. */
  private isPast(symbol: string, closeMs: number): boolean {
    if (closeMs <= this.warmupEndMs) return true;
    const liveFromMs = this.liveFromMs.get(symbol);
    return liveFromMs === null || (liveFromMs !== undefined && closeMs <= liveFromMs);
  }

  onOutbound(items: readonly PairOutbound[]): void {
    for (const item of items) {
      this.marketNowMs = Math.max(this.marketNowMs, item.tsMs);
      if (item.tsMs > (this.pairNowMs.get(item.symbol) ?? -Infinity)) {
        this.pairNowMs.set(item.symbol, item.tsMs);
      }
      if (item.kind === 'bar') this.onBar(item.data as unknown as Bar);
      else if (item.kind === 'entry_signal') {
        const detected = item.data as unknown as EntrySignal;
        const closeMs = item.tsMs + TIMEFRAME_MS[detected.timeframe];
        if (this.pastSettled !== null && !this.pastGraded && closeMs <= this.warmupEndMs &&
          this.heldPast.length < PAST_HELD_MAX) {
          this.heldPast.push(detected);
          continue;
        }
        void this.onSignal(this.grade(detected), this.isPast(item.symbol, closeMs))
          .catch((error: Error) =>
            this.deps.logger.error('entry signal not delivered', { error: error.message }));
      }
    }
  }

  /** Price and screener alerts, once per view cadence with the newest values. */
  onPrices(prices: readonly { symbol: string; price: number | null }[],
    rows: readonly ScreenerRow[], marketNowMs: number): void {
    this.marketNowMs = Math.max(this.marketNowMs, marketNowMs);
    const past = this.marketNowMs < this.warmupEndMs;
    for (const { symbol, price } of prices) {
      if (price !== null) this.fire(this.engine.onPrice(symbol, price, this.marketNowMs), past);
    }
    for (const row of rows) this.fire(this.engine.onScreenerRow(row, this.marketNowMs), past);
  }

  /** Graded before it is claimed: the stored signal, so every view of it, has the letter. */
  private grade(detected: EntrySignal): EntrySignal {
    const signal = this.grader.grade(detected);
    const byGrade = this.signalCounts[signal.timeframe] ??= {};
    byGrade[signal.grade] = (byGrade[signal.grade] ?? 0) + 1;
    return signal;
  }

  /**
   * The held warm-up signals, oldest first: each graded from the outcomes due before its bar
   * (those of earlier held signals evaluated here, from the stored bars), then claimed and
   * scheduled; its outcome, when already due with its bars in, is completed at once. The store
   * writes go in batches (one commit each), not one awaited write per signal.
   */
  private async gradePast(): Promise<void> {
    const held = this.heldPast.splice(0).sort((a, b) => signalTimeMs(a) - signalTimeMs(b) ||
      (a.signal_id < b.signal_id ? -1 : a.signal_id > b.signal_id ? 1 : 0));
    this.pastGraded = true;
    this.pastGrading = held.length;
    const startMs = this.deps.clock.nowMs();
    let byEvidence = 0;
    try {
      await this.bars.flush();
      // In due order: signal time plus 4 h, so the order of `held`.
      const known: { signal: EntrySignal; outcome: SignalOutcome; dueMs: number }[] = [];
      let recorded = 0;
      let writes: Promise<unknown>[] = [];
      const seen = new Set<string>();
      for (const detected of held) {
        const barMs = Date.parse(detected.bar_time);
        for (; recorded < known.length && known[recorded].dueMs < barMs; recorded++) {
          this.grader.record(known[recorded].signal, known[recorded].outcome);
        }
        // Stored before (a restart's warm-up: its outcome is in the book already) or twice.
        if (this.signals.get(detected.signal_id) !== undefined || seen.has(detected.signal_id)) {
          continue;
        }
        seen.add(detected.signal_id);
        const signal = this.grade(detected);
        if (signal.grade_basis === 'evidence') byEvidence += 1;
        const dueMs = signalTimeMs(signal) + OUTCOME_HORIZON_MS;
        const done = this.scheduler.evaluateNow({ signal, entryEventId: '',
          signaledAtMs: signalTimeMs(signal), dueMs }, this.marketNowMs,
        (symbol) => this.barsUntilMs(symbol));
        if (done !== null) known.push({ signal, outcome: done.outcome, dueMs });
        writes.push(this.onSignal(signal, true).then((claimed) => (claimed && done !== null
          ? this.scheduler.complete(signal.signal_id, done.outcome, done.baseline) : undefined)));
        if (writes.length >= PAST_WRITES_PER_BATCH) {
          await Promise.all(writes);
          writes = [];
        }
      }
      await Promise.all(writes);
      for (; recorded < known.length; recorded++) {
        this.grader.record(known[recorded].signal, known[recorded].outcome);
      }
      this.deps.logger.info('warm-up signals graded', { signals: held.length, byEvidence,
        outcomes: known.length, ms: this.deps.clock.nowMs() - startMs });
    } finally {
      this.pastGrading = 0;
    }
  }

  /**
   * Evaluates outcomes whose 4 hours (market time) have passed, from the stored 5m bars. One
   * at a time; none once closing (the pending ones are evaluated after the next start).
   */
  evaluateOutcomes(): Promise<number> {
    if (this.evaluation !== null || this.closed) return Promise.resolve(0);
    this.evaluation = this.evaluateOnce().finally(() => {
      this.evaluation = null;
    });
    return this.evaluation;
  }

  private async evaluateOnce(): Promise<number> {
    if (this.heldPast.length > 0 && this.pastSettled?.() === true) await this.gradePast();
    await this.bars.flush();
    const due = await this.scheduler.evaluateDue(this.marketNowMs,
      (symbol) => this.barsUntilMs(symbol));
    for (const { pending, outcome, baseline } of due) {
      // Outcomes of signals no endpoint was sent are evaluated for the track record only.
      const endpoints = pending.entryEventId === '' ? []
        : this.endpointsForSignal(pending.signal);
      try {
        if (endpoints.length > 0) {
          await this.deps.webhooks.publish('signal.outcome', { ...outcome }, endpoints);
        }
        await this.scheduler.complete(pending.signal.signal_id, outcome, baseline);
        this.grader.record(pending.signal, outcome);
      } catch (error) {
        this.scheduler.release(pending.signal.signal_id);
        throw error;
      }
    }
    return due.length;
  }

  async prune(): Promise<void> {
    await this.bars.prune(this.marketNowMs);
    await this.signals.prune(this.deps.clock.nowMs());
  }

  /** Lets an evaluation in flight complete its writes before the store closes under it. */
  async close(): Promise<void> {
    this.closed = true;
    await this.evaluation?.catch(() => {});
    // A stop before the past settled: its signals are stored with what is known, not lost.
    if (this.heldPast.length > 0) await this.gradePast();
    await this.bars.flush();
  }

  private onBar(bar: Bar): void {
    if (bar.timeframe === '5m') this.bars.add(bar);
    this.fire(this.engine.onBar(bar), this.isPast(bar.symbol,
      bar.openMs + TIMEFRAME_MS[bar.timeframe]));
  }

  /** True when this call claimed the signal (false: seen before, also across restarts). */
  private async onSignal(signal: EntrySignal, past = false): Promise<boolean> {
    // claim() is durable and answers true once per signal_id, across restarts too.
    if (!(await this.signals.claim(signal, this.deps.clock.nowMs()))) return false;
    const endpoints = past ? [] : this.endpointsForSignal(signal);
    if (endpoints.length === 0) {
      // No entry event to follow, but every signal's outcome counts in the track record: the
      // past's too (warm-up, backfill; it sends nothing), evaluated from its stored 5m bars.
      await this.scheduler.schedule(signal, '');
      return true;
    }
    const data = { ...signal, chart_url: chartUrl(this.deps.chartBaseUrl, signal) };
    const { eventId } = await this.deps.webhooks.publish('entry_signal.created', data, endpoints,
      { eventId: eventIdForSignal(signal.signal_id) });
    await this.scheduler.schedule(signal, eventId);
    return true;
  }

  private endpointsForSignal(signal: EntrySignal): string[] {
    const matched = matchEntrySignalAlerts(this.alerts, signal, this.deps.keys);
    return this.endpointIds(matched);
  }

  private endpointIds(alerts: readonly AlertRecord[]): string[] {
    const ids = new Set<string>();
    for (const alert of alerts) {
      const endpoint = this.deps.webhooks.endpoints.byUrl(alert.keyPrefix,
        normalizeUrl(alert.webhookUrl));
      if (endpoint && !endpoint.disabledAtMs) ids.add(endpoint.id);
    }
    return [...ids];
  }

  /** Queues the firings; `past` (inside the warm-up): the alert state moved, nothing is sent. */
  private fire(fires: readonly AlertFire[], past = false): void {
    if (past) return;
    for (const fire of fires) {
      const endpoints = this.endpointIds([fire.alert]);
      if (endpoints.length === 0) continue;
      const payload = buildAlertPayload(fire, this.deps.fundingAnnualizedPct(fire.symbol));
      void this.deps.webhooks.publish('alert.triggered', { ...payload }, endpoints)
        .catch((error: Error) => this.deps.logger.error('alert not queued',
          { alertId: fire.alert.id, error: error.message }));
    }
  }
}

function normalizeUrl(url: string): string {
  try {
    return new URL(url).href;
  } catch {
    return url;
  }
}

function chartUrl(base: string, signal: EntrySignal): string {
  const query = new URLSearchParams({ symbol: signal.symbol, timeframe: signal.timeframe,
    signal: signal.signal_id, at: signal.bar_time });
  return `${base}?${query.toString()}`;
}
