// The alert kinds and their options, and the form-side checks (the server checks again with
// the command line's parser): what each field is and what it must hold; and how a saved
// alert's options read in the list.
import { time } from './format.js';

export interface Field { name: string; label: string; hint: string; required?: boolean;
  check?: (value: string) => string | null; choices?: string[] }

const positive = (label: string) => (v: string) =>
  Number(v) > 0 && Number.isFinite(Number(v)) ? null : `${label} must be a positive number`;
const finite = (label: string) => (v: string) =>
  v.trim() !== '' && Number.isFinite(Number(v)) ? null : `${label} must be a number`;
const symbol = (v: string) => /^[A-Za-z0-9]{1,24}(:[A-Za-z0-9]{1,24})?$/.test(v) ? null
  : 'Symbol must be a pair such as BTC or xyz:TSLA';
const point = (label: string) => (v: string) => {
  const [t, p] = v.split(',');
  return Number.isFinite(Date.parse(t ?? '')) && Number(p) > 0 ? null
    : `${label} must be TIME,PRICE (ISO time, positive price)`;
};
const cooldown: Field = { name: 'cooldown', label: 'Cooldown', hint: '90s, 15m, 1h (optional)',
  check: (v) => v === '' || /^\d+(\.\d+)?(ms|s|m|h|d)?$/.test(v) ? null
    : 'Cooldown must be a duration such as 15m' };

export const KINDS: Record<string, Field[]> = {
  price: [
    { name: 'symbol', label: 'Symbol', hint: 'BTC', required: true, check: symbol },
    { name: 'level', label: 'Price level', hint: 'USD', required: true,
      check: positive('Price level') },
    { name: 'direction', label: 'Crosses', hint: '', required: true, choices: ['above', 'below'] },
    cooldown,
  ],
  screener: [
    { name: 'symbol', label: 'Symbol', hint: 'BTC or all', required: true,
      check: (v) => (v === 'all' ? null : symbol(v)) },
    { name: 'field', label: 'Field', hint: '', required: true, choices: ['price', 'change24h',
      'volume24h', 'openInterest', 'fundingRate', 'fundingAnnualized'] },
    { name: 'above', label: 'Above', hint: 'one of above / below', check: finite('Above') },
    { name: 'below', label: 'Below', hint: '', check: finite('Below') },
    cooldown,
  ],
  entry_signal: [
    { name: 'symbols', label: 'Symbols', hint: 'all or BTC,ETH' },
    { name: 'timeframes', label: 'Timeframes', hint: '5m,15m,1h' },
    { name: 'minGrade', label: 'Minimum grade', hint: '', choices: ['A+', 'A', 'B', 'C', 'D'] },
    cooldown,
  ],
  sweep: [
    { name: 'symbol', label: 'Symbol', hint: 'BTC', required: true, check: symbol },
    { name: 'level', label: 'Level', hint: 'USD', required: true, check: positive('Level') },
    { name: 'side', label: 'Side', hint: '', required: true, choices: ['high', 'low'] },
    { name: 'timeframe', label: 'Timeframe', hint: '', choices: ['5m', '15m', '1h'] },
    cooldown,
  ],
  delta_flip: [
    { name: 'symbol', label: 'Symbol', hint: 'BTC', required: true, check: symbol },
    { name: 'timeframe', label: 'Timeframe', hint: '', choices: ['5m', '15m', '1h'] },
    { name: 'window', label: 'Window (bars)', hint: '1 to 100',
      check: (v) => (/^\d+$/.test(v) && +v >= 1 && +v <= 100 ? null
        : 'Window must be 1 to 100 bars') },
    { name: 'direction', label: 'Direction', hint: '', choices: ['any', 'up', 'down'] },
    cooldown,
  ],
  drawing: [
    { name: 'symbol', label: 'Symbol', hint: 'BTC', required: true, check: symbol },
    { name: 'point1', label: 'Point 1', hint: '2026-11-25T10:00Z,64000', required: true,
      check: point('Point 1') },
    { name: 'point2', label: 'Point 2', hint: '2026-11-25T14:00Z,65000', required: true,
      check: point('Point 2') },
    { name: 'direction', label: 'Direction', hint: '', choices: ['any', 'above', 'below'] },
    cooldown,
  ],
};

/** Errors by field name; empty when the form may be sent. */
export function checkAlert(kind: string, values: Record<string, string>): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const field of KINDS[kind] ?? []) {
    const value = (values[field.name] ?? '').trim();
    if (value === '') {
      if (field.required) errors[field.name] = `${field.label} is required`;
      continue;
    }
    const problem = field.check?.(value);
    if (problem) errors[field.name] = problem;
  }
  if (kind === 'screener' && !values.above === !values.below) {
    errors.above = 'Give exactly one of Above and Below';
  }
  return errors;
}

/** A cooldown as the form takes it: 90s, 15m, 1h, 1h 30m. */
function duration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  const parts = [[Math.floor(seconds / 3600), 'h'], [Math.floor(seconds / 60) % 60, 'm'],
    [seconds % 60, 's']].filter(([n]) => n !== 0).map(([n, unit]) => `${n}${unit}`);
  return parts.join(' ') || '0s';
}

/**
 * An alert's options (the API's flat snake_case fields) as a trader reads them: `level 65,000 ·
 * direction above · cooldown 15m`; times in the pages' UTC form; no cooldown left out.
 */
export function describeAlertOptions(options: Record<string, string | number>): string {
  const { cooldown_ms: cooldownMs, ...own } = options;
  const parts = Object.entries(own).map(([name, value]) => {
    const shown = typeof value === 'number' ? value.toLocaleString('en-US',
      { maximumFractionDigits: 8 }) : /^\d{4}-\d\d-\d\dT/.test(value) ? time(value) : value;
    return `${name.replaceAll('_', ' ')} ${shown}`;
  });
  if (Number(cooldownMs) > 0) parts.push(`cooldown ${duration(Number(cooldownMs))}`);
  return parts.join(' · ');
}
