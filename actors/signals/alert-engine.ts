// Runs the alert.triggered alerts over prices, closed bars and screener rows. State is kept
// per (alert, symbol), bounded by the number of alerts times the listed markets.
import type { Bar } from '../../core/messages.js';
import {
  createAlertState, evaluateDeltaFlip, evaluateDrawing, evaluatePrice, evaluateScreener,
  evaluateSweepBar, evaluateSweepPrice, linePriceAt, type AlertFire, type AlertState,
  type ScreenerRow,
} from './alert-evaluators.js';
import type { AlertRecord } from './alert-types.js';
import { TIMEFRAME_MS } from './types.js';

/** Alerts one engine runs at most; more are left out and counted (`droppedAlerts`). */
export const ENGINE_ALERTS_MAX = 20_000;

export interface AlertEngine {
  /** Replaces the alert set; state of alerts that stay is kept, that of removed ones dropped. */
  setAlerts(alerts: readonly AlertRecord[]): void;
  /** A trade or mark price of a symbol at a market time. */
  onPrice(symbol: string, price: number, tsMs: number): AlertFire[];
  onBar(bar: Bar): AlertFire[];
  onScreenerRow(row: ScreenerRow, tsMs: number): AlertFire[];
  readonly droppedAlerts: number;
}

class Engine implements AlertEngine {
  private bySymbol = new Map<string, AlertRecord[]>();
  private screenerAll: AlertRecord[] = [];
  private states = new Map<string, AlertState>();
  droppedAlerts = 0;

  setAlerts(alerts: readonly AlertRecord[]): void {
    const runnable = alerts.filter((a) => a.kind !== 'entry_signal');
    const kept = runnable.slice(0, ENGINE_ALERTS_MAX);
    this.droppedAlerts = runnable.length - kept.length;
    this.bySymbol = new Map();
    this.screenerAll = [];
    const ids = new Set<string>();
    for (const alert of kept) {
      ids.add(alert.id);
      if (alert.kind === 'screener' && alert.symbol === 'all') this.screenerAll.push(alert);
      else this.bySymbol.set(alert.symbol, [...(this.bySymbol.get(alert.symbol) ?? []), alert]);
    }
    const next = new Map<string, AlertState>();
    for (const [key, state] of this.states) {
      if (ids.has(key.slice(0, key.indexOf('|')))) next.set(key, state);
    }
    this.states = next;
  }

  private stateOf(alert: AlertRecord, symbol: string): AlertState {
    const key = `${alert.id}|${symbol}`;
    let state = this.states.get(key);
    if (state === undefined) {
      state = createAlertState(alert);
      this.states.set(key, state);
    }
    return state;
  }

  onPrice(symbol: string, price: number, tsMs: number): AlertFire[] {
    const fires: AlertFire[] = [];
    for (const alert of this.bySymbol.get(symbol) ?? []) {
      const state = this.stateOf(alert, symbol);
      if (alert.kind === 'price' && evaluatePrice(alert, state, price, tsMs)) {
        fires.push({ alert, symbol, price, tsMs, detail: {} });
      } else if (alert.kind === 'drawing' && evaluateDrawing(alert, state, price, tsMs)) {
        const detail = { line_price: linePriceAt(alert, tsMs) };
        fires.push({ alert, symbol, price, tsMs, detail });
      } else if (alert.kind === 'sweep') evaluateSweepPrice(alert, state, price);
    }
    return fires;
  }

  onBar(bar: Bar): AlertFire[] {
    const fires: AlertFire[] = [];
    const closeMs = bar.openMs + TIMEFRAME_MS[bar.timeframe];
    for (const alert of this.bySymbol.get(bar.symbol) ?? []) {
      if ((alert.kind !== 'sweep' && alert.kind !== 'delta_flip') ||
        alert.timeframe !== bar.timeframe) continue;
      const state = this.stateOf(alert, bar.symbol);
      // A bar at or before the last one seen (a replayed duplicate) changes nothing.
      if (bar.openMs <= state.lastBarOpenMs) continue;
      state.lastBarOpenMs = bar.openMs;
      const fired = alert.kind === 'sweep' ? evaluateSweepBar(alert, state, bar)
        : evaluateDeltaFlip(alert, state, bar);
      if (!fired) continue;
      fires.push({ alert, symbol: bar.symbol, price: bar.close, tsMs: closeMs, detail: {} });
    }
    return fires;
  }

  onScreenerRow(row: ScreenerRow, tsMs: number): AlertFire[] {
    const fires: AlertFire[] = [];
    for (const list of [this.bySymbol.get(row.symbol) ?? [], this.screenerAll]) {
      for (const alert of list) {
        if (alert.kind !== 'screener') continue;
        if (!evaluateScreener(alert, this.stateOf(alert, row.symbol), row, tsMs)) continue;
        fires.push({ alert, symbol: row.symbol, price: row.price, tsMs,
          detail: { value: row[alert.field] } });
      }
    }
    return fires;
  }
}

export function createAlertEngine(initial: readonly AlertRecord[] = []): AlertEngine {
  const engine = new Engine();
  engine.setAlerts(initial);
  return engine;
}
