// The data of alert.triggered: the alert's flat fields plus alert_kind, symbol, price, time and
// funding_annualized_pct (percent, on the venue's real settlement interval).
import type { AlertFire } from './alert-evaluators.js';
import type { AlertRecord } from './alert-types.js';

export type AlertTriggeredData = Readonly<Record<string, string | number | boolean | null>>;

/** The alert's own options as flat snake_case fields. */
export function flatAlertFields(alert: AlertRecord): Record<string, string | number> {
  const base = { alert_id: alert.id, alert_kind: alert.kind, cooldown_ms: alert.cooldownMs };
  switch (alert.kind) {
    case 'entry_signal':
      return { ...base, symbols: alert.symbols === 'all' ? 'all' : alert.symbols.join(','),
        timeframes: alert.timeframes.join(','), min_grade: alert.minGrade };
    case 'price':
      return { ...base, level: alert.level, direction: alert.direction };
    case 'screener':
      return { ...base, field: alert.field, condition: alert.condition, value: alert.value };
    case 'sweep':
      return { ...base, level: alert.level, side: alert.side, timeframe: alert.timeframe };
    case 'delta_flip':
      return { ...base, timeframe: alert.timeframe, window_bars: alert.windowBars,
        direction: alert.direction };
    case 'drawing':
      return { ...base, direction: alert.direction,
        point1_time: new Date(alert.point1.timeMs).toISOString(),
        point1_price: alert.point1.price,
        point2_time: new Date(alert.point2.timeMs).toISOString(),
        point2_price: alert.point2.price };
  }
}

/** Later keys win: the observation's symbol, price and time override the alert's fields. */
export function buildAlertPayload(fire: AlertFire, fundingAnnualizedPct: number | null):
  AlertTriggeredData {
  return {
    ...flatAlertFields(fire.alert),
    ...(fire.alert.kind === 'screener' ? { observed_value: fire.detail.value ?? null } : {}),
    ...(fire.alert.kind === 'drawing' ? { line_price: fire.detail.line_price ?? null } : {}),
    symbol: fire.symbol,
    price: fire.price,
    time: new Date(fire.tsMs).toISOString(),
    funding_annualized_pct: fundingAnnualizedPct,
  };
}
