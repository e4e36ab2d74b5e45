// Plain-text tables for `orderflow webhooks list` and `deliveries`.
import type { EndpointView } from '../../actors/webhooks/endpoints.js';
import type { DeliveryRecord } from '../../persistence/outbox.js';

const iso = (ms: number | null) => (ms === null ? '-' : new Date(ms).toISOString());

function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: readonly string[]) =>
    cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]))).join('  ');
  return [line(header), ...rows.map(line)].join('\n') + '\n';
}

export function formatEndpoints(rows: readonly EndpointView[]): string {
  if (rows.length === 0) return 'no webhook endpoints\n';
  return table(['ID', 'ACCOUNT', 'STATUS', 'CREATED', 'URL'], rows.map((e) => [
    e.id, e.accountId, e.disabledAtMs === null ? 'active' : `disabled:${e.disabledReason}`,
    iso(e.createdAtMs), e.url,
  ]));
}

export function formatDeliveries(rows: readonly DeliveryRecord[]): string {
  if (rows.length === 0) return 'no deliveries\n';
  return table(['CREATED', 'EVENT', 'TYPE', 'STATUS', 'ATTEMPTS', 'NEXT', 'LAST RESULT'],
    rows.map((d) => [
      iso(d.createdAtMs), d.eventId, d.type,
      d.status === 'dead' ? `dead:${d.deadReason}` : d.status, String(d.attempts),
      d.status !== 'pending' ? '-' : d.nextAttemptAtMs === 0 ? 'now' : iso(d.nextAttemptAtMs),
      d.lastResult ?? '-',
    ]));
}
