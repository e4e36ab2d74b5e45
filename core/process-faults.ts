// Faults the process lives through instead of exiting (bin/rejection-guard.ts), counted where
// every role's /metrics reads them (http/server.ts). Process-wide, as the events they count.
import type { Registry } from 'prom-client';
import { registerValue } from './metrics/collected.js';

export const processFaults = {
  /** Promise rejections no code handled: each a bug, logged with its stack. */
  unhandledRejections: 0,
};

/** Registers the counters on the front's registry. */
export function registerProcessFaultMetrics(registry: Registry): void {
  registerValue(registry, 'orderflow_unhandled_rejections_total', 'Promise rejections no code ' +
    'handled (logged, the process kept serving).', () => processFaults.unhandledRejections,
  'counter');
}
