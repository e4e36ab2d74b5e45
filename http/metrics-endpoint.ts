// GET /metrics: the registry's exposition, written by prom-client (asynchronously, so a raw
// mount rather than a route). Loopback peers only unless configured public.
import type { Registry } from 'prom-client';
import type { RawMount } from './dispatch.js';
import { mayReadMetrics } from './handlers/ops.js';
import type { HttpMetrics } from './metrics.js';
import { problems } from './problems.js';

/** `extra`: exposition text appended after the registry's (the scale-out front's histograms). */
export function metricsEndpoint(registry: Registry, metrics: HttpMetrics, metricsPublic: boolean,
  extra: () => string): RawMount {
  let answering = 0;
  return {
    path: '/metrics',
    methods: ['GET'],
    route: 'metrics',
    admit: (info) => (mayReadMetrics(info, metricsPublic) ? null
      : problems.notFound('/metrics is served to loopback clients only')),
    inFlight: () => answering,
    handle(res, _req, ctx) {
      let aborted = false;
      res.onAborted(() => { aborted = true; });
      answering++;
      metrics.count('metrics', 200);
      void registry.metrics().then((text) => `${text}\n${extra()}`).then((body) => {
        if (aborted) return;
        res.cork(() => {
          res.writeHeader('Content-Type', registry.contentType);
          res.writeHeader('Cache-Control', 'no-store');
          for (const [name, value] of ctx.cors) res.writeHeader(name, value);
          res.end(body);
        });
      }, () => {
        if (aborted) return;
        res.cork(() => res.writeStatus('500 Internal Server Error').end());
      }).finally(() => { answering--; });
    },
  };
}
