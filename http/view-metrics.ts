// Freshness of the views the front holds, by family (the name's part before '/': pair, deep,
// cvd, screener, ...), read at scrape time: the oldest view's age against its cadence. And the
// age of the newest per-pair view: when every pair stops updating, the feed is down.
import { performance } from 'node:perf_hooks';
import type { Registry } from 'prom-client';
import type { Clock } from '../core/clock.js';
import { registerCollected, registerValue, type Sample } from '../core/metrics/collected.js';
import type { SnapshotStore } from './snapshots.js';

interface FamilyAges { maxAgeS: number; maxCadences: number; cadenceS: number; views: number }

export function registerViewMetrics(registry: Registry, snapshots: SnapshotStore,
  clock: Clock): void {
  const families = new Map<string, FamilyAges>();
  let newestPairAgeS = NaN;
  let readAt = -Infinity;
  // One pass over the views per scrape, shared by the metrics below.
  const survey = () => {
    // The metrics of one scrape are read within microseconds of each other.
    if (performance.now() - readAt < 100) return;
    readAt = performance.now();
    const nowMs = clock.nowMs();
    families.clear();
    newestPairAgeS = NaN;
    snapshots.forEachView((name, meta) => {
      const slash = name.indexOf('/');
      const family = slash < 0 ? name : name.slice(0, slash);
      const ageS = Math.max(0, nowMs - meta.updatedAtMs) / 1000;
      let ages = families.get(family);
      if (ages === undefined) {
        families.set(family, ages = { maxAgeS: 0, maxCadences: 0, cadenceS: 0, views: 0 });
      }
      ages.views++;
      ages.maxAgeS = Math.max(ages.maxAgeS, ageS);
      ages.cadenceS = Math.max(ages.cadenceS, meta.cadenceMs / 1000);
      if (meta.cadenceMs > 0) ages.maxCadences = Math.max(ages.maxCadences,
        ageS * 1000 / meta.cadenceMs);
      if (slash >= 0 && !(ageS >= newestPairAgeS)) newestPairAgeS = ageS;
    });
  };
  const perFamily = (name: string, help: string, value: (a: FamilyAges) => number) =>
    registerCollected(registry, { name, help, type: 'gauge', read: (out: Sample[]) => {
      survey();
      for (const [family, ages] of families) out.push({ labels: { family }, value: value(ages) });
    } });
  perFamily('orderflow_view_age_max_seconds', 'Age of the oldest view of a family.',
    (a) => a.maxAgeS);
  perFamily('orderflow_view_age_max_cadences', 'Age of the oldest view of a family, in ' +
    'cadences (its refresh period): above 3, it is stale.', (a) => a.maxCadences);
  perFamily('orderflow_view_cadence_seconds', 'Refresh period of a family\'s views.',
    (a) => a.cadenceS);
  perFamily('orderflow_views', 'Views of a family the front holds.', (a) => a.views);
  registerValue(registry, 'orderflow_feed_newest_data_age_seconds', 'Age of the freshest ' +
    'per-pair view: it grows without bound while the feed brings nothing.', () => {
    survey();
    return newestPairAgeS;
  });
}
