// Number and time formats: one unit per kind, aligned in tables (tabular figures in CSS).

export function price(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  const digits = value >= 1000 ? 1 : value >= 1 ? 3 : value >= 0.01 ? 5 : 7;
  return value.toLocaleString('en-US', { minimumFractionDigits: digits,
    maximumFractionDigits: digits });
}

export function pct(value: number | null | undefined, digits = 2): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  return `${value > 0 ? '+' : ''}${value.toFixed(digits)} %`;
}

/** USD in compact form: $1.24 M, $845.1 K. */
export function usd(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  const abs = Math.abs(value);
  const [div, unit] = abs >= 1e9 ? [1e9, ' B'] : abs >= 1e6 ? [1e6, ' M'] : abs >= 1e3
    ? [1e3, ' K'] : [1, ''];
  return `${value < 0 ? '-' : ''}$${(abs / div).toFixed(div === 1 ? 0 : 2)}${unit}`;
}

export function num(value: number | null | undefined, digits = 2): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  return value.toLocaleString('en-US', { maximumFractionDigits: digits,
    minimumFractionDigits: digits });
}

/** ISO instant as `YYYY-MM-DD HH:MM:SS` UTC. */
export function time(iso: string | null | undefined): string {
  if (!iso) return '—';
  return iso.replace('T', ' ').replace(/\.\d+Z$|Z$/, '') + ' UTC';
}

/** Epoch seconds (a chart's x) as `YYYY-MM-DD HH:MM:SS UTC`; '—' for none. */
export function secondsTime(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return '—';
  return time(new Date(seconds * 1000).toISOString());
}

export function signClass(value: number | null | undefined): string {
  return value === null || value === undefined || value === 0 ? '' : value > 0 ? 'up' : 'down';
}

/** A wallet address shortened for tables: `0x1234…abcd`. */
export function shortAddress(address: string): string {
  return `${address.slice(0, 6)}…${address.slice(-4)}`;
}
