// GET /api/v1/signals/performance?format=csv: one line per group with every field of its JSON
// row; the answer's other blocks (information coefficient, calibration, multiple comparisons)
// are in the JSON only.
import { field, toCsv } from './csv.js';

export const PERFORMANCE_CSV_FIELDS = [
  'group', 'count', 'evaluated', 't1Hits', 'stopHits', 'hitRate', 'hitRateLow', 'hitRateHigh',
  'avgMovePct', 'avgMaxFavorablePct', 'avgMaxAdversePct', 'expectancyR', 'expectancyRLow',
  'expectancyRHigh', 'intervalMethod', 'baselineEvaluated', 'baselineRandomR', 'baselineTrendR',
  'trendEvaluated', 'edgeR', 'edgeRLow', 'edgeRHigh', 'edgePValue', 'edgeSignificant',
] as const;

export function performanceCsv(answer: unknown): string {
  const rows = (answer as { groups: Record<string, unknown>[] }).groups;
  return toCsv(PERFORMANCE_CSV_FIELDS.map(field), rows);
}
