// GET /api/v1/export/{view}.csv: the JSON views as CSV, built once per view version.
import { VENUES } from '../../core/messages.js';
import { field, toCsv, type Column } from '../csv.js';
import { problems } from '../problems.js';
import type { Handler } from '../routes.js';
import type { SnapshotStore } from '../snapshots.js';
import { variantEtag, type VariantCache } from '../variants.js';
import { CSV_TYPE, fail, ok } from './payloads.js';

type Row = Record<string, unknown>;

interface ExportSpec {
  readonly columns: readonly Column[];
  readonly rows: (data: unknown) => readonly Row[];
}

const isRow = (value: unknown): value is Row => typeof value === 'object' && value !== null;
const listOf = (value: unknown): Row[] => (Array.isArray(value) ? value.filter(isRow) : []);
const fields = (...names: string[]) => names.map(field);

/** `<venue>_<key>` from the row's `venues` object (null where the venue lacks the pair). */
function venueField(venue: string, key: string): Column {
  return {
    header: `${venue}_${key}`,
    value: (row) => {
      const perVenue = isRow(row.venues) ? row.venues[venue] : undefined;
      return isRow(perVenue) ? perVenue[key] : undefined;
    },
  };
}

const venueColumns = () => VENUES.flatMap((venue) =>
  [venueField(venue, 'intervalHours'), venueField(venue, 'annualized')]);

/** Column layouts per exportable view (documented in docs/api.md and the OpenAPI document). */
export const exportSpecs: Readonly<Record<string, ExportSpec>> = {
  'screener': {
    columns: fields('symbol', 'dex', 'price', 'change24h', 'volume24h', 'openInterest',
      'fundingRate', 'fundingAnnualized', 'delisted', 'tracked', 'stale'),
    rows: (data) => listOf(isRow(data) ? data.pairs : undefined),
  },
  'signals': {
    columns: fields('symbol', 'score', 'direction', 'vpin', 'cvd', 'regime', 'fundingAnnualized'),
    rows: (data) => (isRow(data)
      ? Object.entries(data).filter(([, v]) => isRow(v)).map(([symbol, v]) => ({ symbol,
        ...(v as Row) }))
      : []),
  },
  'funding-arb': {
    columns: [
      ...fields('symbol', ...VENUES, 'maxSpread', 'spread', 'spreadAnnualized', 'longVenue',
        'shortVenue'),
      ...venueColumns(),
      ...fields('openInterest', 'volume24h', 'tracked'),
    ],
    rows: (data) => listOf(isRow(data) ? data.pairs : undefined),
  },
  'smart-money': {
    columns: fields('address', 'label', 'category', 'accountValue', 'symbol', 'side', 'notional',
      'leverage', 'entryPrice', 'unrealizedPnl'),
    rows: (data) => listOf(isRow(data) ? data.positions : undefined),
  },
};

export const EXPORT_VIEWS = Object.keys(exportSpecs);

export function exportHandler(snapshots: SnapshotStore, variants: VariantCache): Handler {
  return ({ segment }) => {
    const view = segment.endsWith('.csv') ? segment.slice(0, -4) : undefined;
    const spec = view === undefined ? undefined : exportSpecs[view];
    if (view === undefined || spec === undefined) {
      return fail(problems.notFound(`export must be one of ${EXPORT_VIEWS.map((v) => v +
        '.csv').join(', ')} (was ${JSON.stringify(segment.slice(0, 40))})`));
    }
    const entry = snapshots.get(view);
    if (entry === undefined) return fail(problems.notReady(view));
    return ok(variants.variant(view, entry, 'csv', (data) => ({
      contentType: CSV_TYPE,
      body: toCsv(spec.columns, spec.rows(data)),
      cacheControl: entry.cacheControl,
      etag: variantEtag(entry, 'csv'),
      lastModified: entry.lastModified,
      cadence: entry.cadenceHeader,
      headers: [['Content-Disposition', `attachment; filename="${view}.csv"`]],
    })));
  };
}
