// Metrics of signals and history, read at scrape time: entry signals by timeframe and grade,
// outcomes still pending, 1-minute points written and how far the hourly rollup trails.
import type { Registry } from 'prom-client';
import { registerCollected, registerValue } from '../../core/metrics/collected.js';
import type { HistoryRecorder } from './history-recorder.js';
import type { SignalPipeline } from './signal-pipeline.js';

export function registerSignalHistoryMetrics(registry: Registry, signals: SignalPipeline,
  history: HistoryRecorder): void {
  registerCollected(registry, {
    name: 'orderflow_signals_total', type: 'counter',
    help: 'Entry signals detected since start, by timeframe and grade.',
    read: (out) => {
      for (const [timeframe, byGrade] of Object.entries(signals.signalCounts)) {
        for (const [grade, value] of Object.entries(byGrade)) {
          out.push({ labels: { timeframe, grade }, value });
        }
      }
    },
  });
  registerValue(registry, 'orderflow_signals_outcomes_pending',
    'Entry signals whose 4-hour outcome is not evaluated yet.',
    () => signals.signalStore.pendingCount());
  registerValue(registry, 'orderflow_history_points_written_total',
    '1-minute history points handed to the store since start.', () => history.pointsWritten,
    'counter');
  registerValue(registry, 'orderflow_history_rollup_lag_seconds',
    'Market time the hourly rollup trails the current hour by, at most over pairs.',
    () => history.store.rollupLagMs() / 1000);
}
