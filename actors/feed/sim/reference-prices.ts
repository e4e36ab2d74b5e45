// Reference prices of the simulated markets: where each market's price path is anchored.
// Taken from the venue's recorded metaAndAssetCtxs answer of 2026-02-06 12:54 UTC (the repo's
// test/fixtures/venue recording, main dex and the `xyz` builder dex): each `markPx`, copied here
// as data because runtime code does not read test fixtures. Prices of that day, so of the right
// order (an alt at 0.1 is simulated near 0.1, not at 30).
const RECORDED_MARKS: Readonly<Record<string, number>> = {
  BTC: 66344.0, ETH: 1919.1, ATOM: 1.8649, MATIC: 0.37621, DYDX: 0.11075, SOL: 81.499,
  AVAX: 8.6821, BNB: 634.94, APE: 0.12511, OP: 0.1834, LTC: 52.412, ARB: 0.11134, DOGE: 0.0932,
  INJ: 3.1681, SUI: 0.94425, kPEPE: 0.003663, CRV: 0.23816, LDO: 0.34144, LINK: 8.2967,
  STX: 0.26469, RNDR: 6.8952, CFX: 0.047255, FTM: 0.71688, GMX: 5.9675, SNX: 0.2816, XRP: 1.372,
  BCH: 470.25, APT: 1.0638, AAVE: 106.07, COMP: 16.445, MKR: 1831.5, WLD: 0.37685, FXS: 0.65538,
  HPOS: 0.041873, RLB: 0.071, UNIBOT: 7.636, TRX: 0.2687, kSHIB: 0.00598, UNI: 3.3352,
  SEI: 0.075568, RUNE: 0.39885, OX: 0.007459, FRIEND: 4.72, SHIA: 0.000621, CYBER: 1.0415,
  ZRO: 1.4846, BLZ: 0.070043, DOT: 1.3155, BANANA: 4.3569, TRB: 14.103, LOOM: 0.071161,
  OGN: 0.055683, RDNT: 0.018328, ARK: 0.1732, BNT: 0.38287, CANTO: 0.066, BIGTIME: 0.0143,
  BLUR: 0.01969, TIA: 0.32253, ADA: 0.26118, TON: 1.293, MINA: 0.062825, POLYX: 0.042093,
  GAS: 1.6637, PENDLE: 1.1942, STG: 0.15387, NEAR: 1.0163, MEME: 0.000715, ORDI: 2.6625,
  BADGER: 0.88823, FIL: 0.909, PYTH: 0.042759, SUSHI: 0.20133, ILV: 12.118, IMX: 0.15273,
  kBONK: 0.006072, NFTI: 6.5609, JUP: 0.15975, kLUNC: 0.0351, RSR: 0.001619, GALA: 0.004033,
  JTO: 0.23887, NTRN: 0.1238, ACE: 0.178, MAV: 0.017414, WIF: 0.22015, CAKE: 1.3305,
  PEOPLE: 0.00666, ENS: 5.6592, ETC: 8.3486, XAI: 0.01037, MANTA: 0.06605, UMA: 0.50308,
  ONDO: 0.2457, ALT: 0.007944, ZETA: 0.05121, DYM: 0.04158, MAVIA: 0.03864, W: 0.02009,
  PANDORA: 3026.3, STRK: 0.0495, PIXEL: 0.024027, AI: 0.12555, TAO: 167.1, MYRO: 0.015813,
  kFLOKI: 0.030318, BOME: 0.00041, ETHFI: 0.45186, ENA: 0.11972, TNSR: 0.04368, SAGA: 0.03083,
  HBAR: 0.084405, POPCAT: 0.049087, OMNI: 4.1915, EIGEN: 0.2114, REZ: 0.00314, NOT: 0.000394,
  TURBO: 0.001076, BRETT: 0.007456, IO: 0.1086, ZK: 0.023368, LISTA: 0.12466, MEW: 0.000582,
  POL: 0.095373, CATI: 0.082821, HMSTR: 0.000172, SCR: 0.0519, GOAT: 0.022143, MOODENG: 0.045462,
  GRASS: 0.1882, PURR: 0.075137, PNUT: 0.04806, XLM: 0.15732, CHILLGUY: 0.009925, SAND: 0.08233,
  ALGO: 0.094519, HYPE: 34.292, ME: 0.13768, MOVE: 0.022252, VIRTUAL: 0.5537, USUAL: 0.01546,
  FARTCOIN: 0.1965, AI16Z: 0.06157, AIXBT: 0.020484, ZEREBRO: 0.007802, GRIFFAIN: 0.008834,
  SPX: 0.2788, S: 0.044876, TRUMP: 3.301, ANIME: 0.005315, VINE: 0.018135, JELLY: 0.037555,
  BERA: 0.3949, TST: 0.010367, LAYER: 0.081519, IP: 1.2169, OM: 0.04364, KAITO: 0.31463,
  NIL: 0.04334, PROMPT: 0.048898, BABY: 0.012419, WCT: 0.055768, HYPER: 0.094091, ZORA: 0.023139,
  INIT: 0.065263, LAUNCHCOIN: 0.060367, NXPC: 0.28475, SOPH: 0.009097, RESOLV: 0.077175,
  SYRUP: 0.26193, PUMP: 0.002062, PROVE: 0.29836, YZY: 0.32897, XPL: 0.080976, WLFI: 0.1091,
  LINEA: 0.003354, SKY: 0.05994, ASTER: 0.52727, AVNT: 0.19168, STBL: 0.03881, '0G': 0.5164,
  HEMI: 0.010963, ZEC: 231.2, MON: 0.017497, MET: 0.20264, ICP: 2.3805, AXS: 1.3243,
  'xyz:XYZ100': 24657.0, 'xyz:TSLA': 399.52, 'xyz:NVDA': 176.19, 'xyz:GOLD': 4899.9,
  'xyz:HOOD': 75.823, 'xyz:INTC': 49.169, 'xyz:PLTR': 135.53, 'xyz:COIN': 153.73,
  'xyz:META': 668.52, 'xyz:AAPL': 274.5, 'xyz:MSFT': 398.65, 'xyz:ORCL': 138.33,
  'xyz:GOOGL': 326.41, 'xyz:AMZN': 204.31, 'xyz:CRCL': 52.485, 'xyz:NFLX': 80.877,
  'xyz:SILVER': 74.646,
};

/**
 * Markets the recording does not list (or lists under another name): orders of magnitude set by
 * hand from public quotes of early 2026, so they sit within a factor of a few of the market.
 */
const FALLBACK_MARKS: Readonly<Record<string, number>> = {
  VET: 0.012, MANA: 0.15, YFI: 3_500, BAL: 0.6, MOG: 0.000_000_25, DOGS: 0.000_05,
  NEIRO: 0.000_1, SATS: 0.000_000_02, ARKM: 0.2, HFT: 0.03, ZKSYNC: 0.05, LOOMOLD: 0.05,
  AKT: 0.8, JELLYJELLY: 0.05,
};

/** Price of a market no table knows: near the median of the recorded main-dex marks (0.12). */
export const UNKNOWN_MARK = 0.1;

/**
 * The reference price of a listed symbol: its recorded mark; a builder market on another dex
 * (`flx:TSLA`) takes the recorded `xyz` mark of the same ticker; then the hand-set table.
 */
export function referenceMark(symbol: string): number {
  const recorded = RECORDED_MARKS[symbol];
  if (recorded !== undefined) return recorded;
  const colon = symbol.indexOf(':');
  if (colon >= 0) {
    const sameTicker = RECORDED_MARKS[`xyz:${symbol.slice(colon + 1)}`];
    if (sameTicker !== undefined) return sameTicker;
  }
  return FALLBACK_MARKS[symbol] ?? UNKNOWN_MARK;
}

/** True when the symbol's reference is the recorded mark (directly or by its ticker). */
export function isRecordedMark(symbol: string): boolean {
  const colon = symbol.indexOf(':');
  return RECORDED_MARKS[symbol] !== undefined ||
    (colon >= 0 && RECORDED_MARKS[`xyz:${symbol.slice(colon + 1)}`] !== undefined);
}
