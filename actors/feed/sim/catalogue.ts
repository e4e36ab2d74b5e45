// The simulated venue's listed perpetuals: main-dex tickers with realistic prices and 24h
// volumes, delisted markets, and builder-dex markets (`<dex>:<ticker>`) with trading sessions.
import { hashString, hashUnit } from './rng.js';

/** When a builder market trades; 'always' for crypto. UTC hours, Monday..Friday for the rest. */
export type Session = 'always' | 'us-equity' | 'weekday-23h';

export interface SimMarket {
  readonly symbol: string;
  readonly dex: string;
  /** Price at the simulation's reference instant (the path moves around it). */
  readonly basePx: number;
  /** Typical 24h notional volume in USD. */
  readonly baseVolumeUsd: number;
  /** Open interest in USD at the reference instant. */
  readonly baseOpenInterestUsd: number;
  readonly szDecimals: number;
  readonly maxLeverage: number;
  readonly isDelisted: boolean;
  readonly onlyIsolated: boolean;
  readonly session: Session;
  /** Daily volatility of the price path (fraction). */
  readonly dailyVol: number;
  /** Stable numeric id of the symbol (hash), used as the noise stream. */
  readonly stream: number;
}

// Top of the venue with prices and volumes close to the real metaAndAssetCtxs of 2026-02.
const TOP: readonly (readonly [string, number, number])[] = [
  ['BTC', 98_000, 12e9], ['ETH', 3_400, 4.5e9], ['SOL', 190, 1.9e9], ['HYPE', 24, 9.6e8],
  ['XRP', 2.3, 4.5e8], ['ZEC', 380, 1.2e8], ['DOGE', 0.32, 1.16e8], ['SUI', 3.6, 6.8e7],
  ['PUMP', 0.006, 6.2e7], ['BNB', 690, 5.4e7], ['FARTCOIN', 1.1, 4.8e7], ['ENA', 0.72, 4.4e7],
  ['kPEPE', 0.018, 4e7], ['AVAX', 36, 3.6e7], ['LINK', 21, 3.3e7], ['ADA', 0.95, 3e7],
  ['WLD', 2.1, 2.7e7], ['LTC', 105, 2.5e7], ['AAVE', 310, 2.3e7], ['TRUMP', 14, 2.1e7],
];

// The rest of the main dex, ordered roughly by activity.
const REST = (
  'ARB OP APT TIA SEI INJ NEAR TAO WIF kBONK ONDO JUP ATOM DOT UNI FIL LDO CRV MKR PENDLE ' +
  'ETHFI EIGEN STX RUNE TRX TON BCH ETC HBAR ICP XLM ALGO VET SAND MANA AXS GALA IMX APE ' +
  'BLUR DYDX GMX SNX COMP SUSHI YFI BAL ZRO ZK STRK W JTO PYTH MEW POPCAT BRETT MOG GOAT ' +
  'MOODENG PNUT CHILLGUY VIRTUAL AI16Z GRIFFAIN ZEREBRO AIXBT SPX ME MOVE USUAL HYPER BERA ' +
  'IP KAITO LAYER S ANIME VINE TST BABY NIL INIT WCT SOPH RESOLV NXPC PROMPT SYRUP LAUNCHCOIN ' +
  'kSHIB kFLOKI kLUNC NOT DOGS HMSTR CATI NEIRO TURBO BOME MEME ORDI SATS BIGTIME CAKE ' +
  'FXS CFX MINA ZETA DYM MAV ARK BANANA LISTA REZ SAGA OMNI TNSR ALT MANTA PIXEL XAI ACE ' +
  'NTRN UMA RSR BADGER ILV GAS POLYX PEOPLE BLZ OGN STG RDNT FTM MAVIA SCR GRASS IO ZORA ' +
  'POL ENS LOOM CYBER ARKM MET PROVE WLFI ASTER AVNT XPL 0G LINEA STBL HEMI MON PURR ' +
  'YZY SKY OM JELLY TRB HFT'
).split(' ');

// Main-dex markets kept in metadata after delisting (zero volume and open interest).
const DELISTED = (
  'MATIC RNDR FRIEND UNIBOT SHIA OX CANTO ZKSYNC BNT LOOMOLD AKT RLB JELLYJELLY MYRO ' +
  'NFTI PANDORA AI HPOS'
).split(' ');

// Builder dexes: stocks and commodities quoted in USD, trading in their venue's sessions.
const BUILDER: readonly (readonly [string, number, number, Session, boolean])[] = [
  ['xyz:XYZ100', 21_500, 9e7, 'weekday-23h', false], ['xyz:TSLA', 420, 6e7, 'us-equity', false],
  ['xyz:NVDA', 180, 4.5e7, 'us-equity', false], ['xyz:GOLD', 2_950, 3e7, 'weekday-23h', false],
  ['xyz:HOOD', 110, 1.2e7, 'us-equity', false], ['xyz:INTC', 24, 6e6, 'us-equity', false],
  ['xyz:PLTR', 160, 1.1e7, 'us-equity', false], ['xyz:COIN', 310, 1.4e7, 'us-equity', false],
  ['xyz:AAPL', 230, 1.5e7, 'us-equity', false], ['xyz:MSFT', 470, 9e6, 'us-equity', false],
  ['xyz:GOOGL', 190, 1e7, 'us-equity', false], ['xyz:AMZN', 225, 8e6, 'us-equity', false],
  ['xyz:META', 690, 7e6, 'us-equity', false], ['xyz:ORCL', 210, 4e6, 'us-equity', false],
  ['xyz:SILVER', 32, 0, 'weekday-23h', true], ['xyz:NFLX', 980, 0, 'us-equity', true],
  ['flx:TSLA', 420, 3e6, 'us-equity', false], ['flx:GOLD', 2_950, 2e6, 'weekday-23h', false],
  ['flx:COIN', 310, 1.5e6, 'us-equity', false], ['flx:CRCL', 120, 9e5, 'us-equity', false],
];

function szDecimalsFor(px: number): number {
  // The venue quotes about 5 significant figures of price and sizes to match.
  return Math.max(0, Math.min(5, Math.round(Math.log10(px) + 1)));
}

function mainMarket(seed: number, symbol: string, px: number, volumeUsd: number,
  isDelisted: boolean): SimMarket {
  const stream = hashString(symbol);
  const u = hashUnit(seed, stream, 7);
  const maxLeverage = volumeUsd > 1e9 ? 40 : volumeUsd > 1e8 ? 20 : volumeUsd > 1e7 ? 10 : 5;
  return {
    symbol, dex: '', basePx: px,
    baseVolumeUsd: isDelisted ? 0 : volumeUsd,
    baseOpenInterestUsd: isDelisted ? 0 : volumeUsd * (0.25 + 0.5 * u),
    szDecimals: szDecimalsFor(px), maxLeverage, isDelisted,
    onlyIsolated: !isDelisted && maxLeverage <= 5 && u < 0.3,
    session: 'always', dailyVol: 0.025 + 0.05 * hashUnit(seed, stream, 8), stream,
  };
}

/** Builds the deterministic market list for a seed (same seed, same list, on every thread). */
export function buildCatalogue(seed: number): SimMarket[] {
  const markets: SimMarket[] = TOP.map(([s, px, vol]) => mainMarket(seed, s, px, vol, false));
  REST.forEach((symbol, i) => {
    const stream = hashString(symbol);
    // Log-uniform price between 0.01 and 100; volume decays with rank, jittered per seed.
    const px = Number((0.01 * Math.pow(1e4, hashUnit(seed, stream, 1))).toPrecision(5));
    const volume = 2e7 * Math.exp(-i / 28) * (0.6 + 0.8 * hashUnit(seed, stream, 2));
    markets.push(mainMarket(seed, symbol, px, Math.max(2e4, volume), false));
  });
  for (const symbol of DELISTED) {
    const px = Number((0.01 * Math.pow(1e3, hashUnit(seed, hashString(symbol), 1))).toPrecision(5));
    markets.push(mainMarket(seed, symbol, px, 0, true));
  }
  for (const [symbol, px, volume, session, isDelisted] of BUILDER) {
    const stream = hashString(symbol);
    markets.push({
      symbol, dex: symbol.slice(0, symbol.indexOf(':')), basePx: px,
      baseVolumeUsd: volume, baseOpenInterestUsd: volume * 0.4,
      szDecimals: szDecimalsFor(px) - 1 < 0 ? 0 : szDecimalsFor(px) - 1,
      maxLeverage: symbol.endsWith('GOLD') || symbol.endsWith('XYZ100') ? 20 : 10,
      isDelisted, onlyIsolated: true, session,
      dailyVol: 0.012 + 0.02 * hashUnit(seed, stream, 8), stream,
    });
  }
  return markets;
}

/** True while the market's session is open at tMs (builder markets pause outside it). */
export function isSessionOpen(session: Session, tMs: number): boolean {
  if (session === 'always') return true;
  const d = new Date(tMs);
  const day = d.getUTCDay();
  if (day === 0 || day === 6) return false;
  const minute = d.getUTCHours() * 60 + d.getUTCMinutes();
  if (session === 'us-equity') return minute >= 13 * 60 + 30 && minute < 20 * 60;
  return minute < 22 * 60 || minute >= 23 * 60;
}
