// Faults the process lives through instead of exiting (bin/rejection-guard.ts), counted where
// every role's /metrics reads them (http/metrics.ts). Process-wide, as the events they count.

export const processFaults = {
  /** Promise rejections no code handled: each a bug, logged with its stack. */
  unhandledRejections: 0,
};

/** The counters in Prometheus text format. */
export function renderProcessFaultMetrics(): string {
  return [
    '# HELP orderflow_unhandled_rejections_total Promise rejections no code handled (logged, ' +
      'the process kept serving).',
    '# TYPE orderflow_unhandled_rejections_total counter',
    `orderflow_unhandled_rejections_total ${processFaults.unhandledRejections}`,
  ].join('\n') + '\n';
}
