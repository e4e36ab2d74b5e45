// Display rounding for the free mode: values an agent shows a person, not inputs to a model.

type Rounder = (value: number) => number;

const decimals = (places: number): Rounder => (value) => Number(value.toFixed(places));
const significant = (digits: number): Rounder => (value) => Number(value.toPrecision(digits));

const percent = decimals(2);
const usd = decimals(0);
const rate = significant(3);
const ratio = decimals(3);
const price = significant(6);

/** Rounding per field name; a field not listed keeps 6 significant digits. */
const rules: Readonly<Record<string, Rounder>> = {
  change24h: percent, fundingAnnualized: percent, spreadAnnualized: percent, annualized: percent,
  medianChange24h: percent, averageFundingAnnualized: percent,
  volume24h: usd, openInterest: usd, notional: usd, accountValue: usd, unrealizedPnl: usd,
  cvd: usd, totalVolume24h: usd, totalOpenInterest: usd,
  fundingRate: rate, rate, home: rate, exchange_b: rate, exchange_c: rate, exchange_d: rate,
  exchange_e: rate, spread: rate, maxSpread: rate,
  vpin: ratio, obi: ratio,
  price, entryPrice: price, markPx: price,
};

/** A copy with every number rounded for display by its field name; integers stay as they are. */
export function roundForDisplay(value: unknown, field = ''): unknown {
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || Number.isInteger(value)) return value;
    return (rules[field] ?? price)(value);
  }
  if (Array.isArray(value)) return value.map((item) => roundForDisplay(item, field));
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [name, item] of Object.entries(value)) out[name] = roundForDisplay(item, name);
    return out;
  }
  return value;
}
