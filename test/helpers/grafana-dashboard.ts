// deploy/grafana/orderflow.json, typed: the import must satisfy @grafana/schema's Dashboard with
// its string enums widened to strings (a JSON import's strings are never literal types), so
// `npm run typecheck` fails when the JSON leaves Grafana's model; the enum values are checked at
// run time by test/e2e/grafana-dashboard.test.ts.
import type { Dashboard, Panel, RowPanel } from '@grafana/schema';
import dashboardJson from '../../deploy/grafana/orderflow.json' with { type: 'json' };

/** `T` with literal and enum leaves widened to their primitive type. */
type Widened<T> = T extends string ? string : T extends number ? number
  : T extends boolean ? boolean : T extends readonly (infer U)[] ? Widened<U>[]
    : T extends object ? { [K in keyof T]: Widened<T[K]> } : T;

export const dashboard = dashboardJson satisfies Widened<Dashboard> as unknown as Dashboard;

export const isRow = (panel: Panel | RowPanel): panel is RowPanel => panel.type === 'row';

/** The dashboard's panels that draw data (rows hold no query). */
export function dataPanels(): Panel[] {
  return (dashboard.panels ?? []).flatMap((p) => (isRow(p) ? p.panels : [p]));
}

/** Every PromQL expression of a panel, with the panel's title. */
export function dashboardQueries(): { title: string; expr: string }[] {
  return dataPanels().flatMap((panel) => (panel.targets ?? [])
    .map((target) => ({ title: panel.title ?? '', expr: String(target.expr) })));
}
