// Wallet categories as the service names them, in the order the pages list them, with the
// words the pages show.
export const CATEGORIES = ['fund', 'smart_money', 'directional_whale', 'market_maker', 'degen',
  'insider'] as const;

const LABELS: Record<string, string> = {
  fund: 'Fund', smart_money: 'Smart money', directional_whale: 'Directional whale',
  market_maker: 'Market maker', degen: 'Degen', insider: 'Insider',
};

export function categoryLabel(category: string): string {
  return LABELS[category] ?? category;
}

/** Long and short USD by category, the net of each, in CATEGORIES order (zero rows left out). */
export function categoryRows(long: Record<string, number>, short: Record<string, number>):
  { category: string; long: number; short: number; net: number }[] {
  return CATEGORIES.map((category) => {
    const l = long[category] ?? 0;
    const s = short[category] ?? 0;
    return { category, long: l, short: s, net: l - s };
  }).filter((row) => row.long !== 0 || row.short !== 0);
}
