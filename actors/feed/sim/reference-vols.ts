// Daily volatilities of the simulated majors: a major moves less than an alt, and a BTC drawn
// like any alt (2.5-7.5 % a day) swung two to three times as much as the real one. Set by hand
// from the realised volatility of daily closes over 2024-2025, of the order public
// volatility indices show: BTC about 40 % a year (2.1 % a day), ETH about 60 % (3.1 %), BNB
// about 40 % (2.1 %). Other main-dex markets keep the seeded alt draw (catalogue.ts).
const MAJOR_DAILY_VOL: Readonly<Record<string, number>> = {
  BTC: 0.021, ETH: 0.031, BNB: 0.021,
};

/** The documented daily volatility of a major, or undefined for the rest. */
export function majorDailyVol(symbol: string): number | undefined {
  return MAJOR_DAILY_VOL[symbol];
}
