// The simulated venue's listed perpetuals: main-dex tickers with realistic prices and 24h
// volumes, delisted markets, and builder-dex markets (`<dex>:<ticker>`) with trading sessions.
import { INFORMED_SHARE_DEFAULT } from '../../../core/config.js';
import { REFERENCE_INSTANT_MS } from './fundamental.js';
import { referenceMark } from './reference-prices.js';
import { majorDailyVol } from './reference-vols.js';
import { hashString, hashUnit } from './rng.js';

/** When a builder market trades; 'always' for crypto. UTC hours, Monday..Friday for the rest. */
export type Session = 'always' | 'us-equity' | 'weekday-23h';

export interface SimMarket {
  readonly symbol: string;
  readonly dex: string;
  /** Reference price the path moves around: the venue's recorded mark (reference-prices.ts). */
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
  /**
   * Share of the fundamental's news that reaches the price only through informed order flow
   * (`--informed`); 0 is the null world, where flow carries no information.
   */
  readonly informedShare: number;
  /** The world's anchor (fundamental.ts): where its price paths start from basePx. */
  readonly anchorMs: number;
}


// Top of the venue with 24h volumes close to the real metaAndAssetCtxs of 2026-02.
const TOP: readonly (readonly [string, number])[] = [
  ['BTC', 12e9], ['ETH', 4.5e9], ['SOL', 1.9e9], ['HYPE', 9.6e8], ['XRP', 4.5e8], ['ZEC', 1.2e8],
  ['DOGE', 1.16e8], ['SUI', 6.8e7], ['PUMP', 6.2e7], ['BNB', 5.4e7], ['FARTCOIN', 4.8e7],
  ['ENA', 4.4e7], ['kPEPE', 4e7], ['AVAX', 3.6e7], ['LINK', 3.3e7], ['ADA', 3e7], ['WLD', 2.7e7],
  ['LTC', 2.5e7], ['AAVE', 2.3e7], ['TRUMP', 2.1e7],
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
const BUILDER: readonly (readonly [string, number, Session, boolean])[] = [
  ['xyz:XYZ100', 9e7, 'weekday-23h', false], ['xyz:TSLA', 6e7, 'us-equity', false],
  ['xyz:NVDA', 4.5e7, 'us-equity', false], ['xyz:GOLD', 3e7, 'weekday-23h', false],
  ['xyz:HOOD', 1.2e7, 'us-equity', false], ['xyz:INTC', 6e6, 'us-equity', false],
  ['xyz:PLTR', 1.1e7, 'us-equity', false], ['xyz:COIN', 1.4e7, 'us-equity', false],
  ['xyz:AAPL', 1.5e7, 'us-equity', false], ['xyz:MSFT', 9e6, 'us-equity', false],
  ['xyz:GOOGL', 1e7, 'us-equity', false], ['xyz:AMZN', 8e6, 'us-equity', false],
  ['xyz:META', 7e6, 'us-equity', false], ['xyz:ORCL', 4e6, 'us-equity', false],
  ['xyz:SILVER', 0, 'weekday-23h', true], ['xyz:NFLX', 0, 'us-equity', true],
  ['flx:TSLA', 3e6, 'us-equity', false], ['flx:GOLD', 2e6, 'weekday-23h', false],
  ['flx:COIN', 1.5e6, 'us-equity', false], ['flx:CRCL', 9e5, 'us-equity', false],
];

function szDecimalsFor(px: number): number {
  // The venue quotes about 5 significant figures of price and sizes to match.
  return Math.max(0, Math.min(5, Math.round(Math.log10(px) + 1)));
}

function mainMarket(seed: number, informedShare: number, anchorMs: number, symbol: string,
  volumeUsd: number, isDelisted: boolean): SimMarket {
  const px = referenceMark(symbol);
  const stream = hashString(symbol);
  const u = hashUnit(seed, stream, 7);
  const maxLeverage = volumeUsd > 1e9 ? 40 : volumeUsd > 1e8 ? 20 : volumeUsd > 1e7 ? 10 : 5;
  return {
    symbol, dex: '', basePx: px,
    baseVolumeUsd: isDelisted ? 0 : volumeUsd,
    baseOpenInterestUsd: isDelisted ? 0 : volumeUsd * (0.25 + 0.5 * u),
    szDecimals: szDecimalsFor(px), maxLeverage, isDelisted,
    onlyIsolated: !isDelisted && maxLeverage <= 5 && u < 0.3,
    session: 'always', dailyVol: majorDailyVol(symbol) ?? 0.025 + 0.05 * hashUnit(seed, stream, 8),
    stream, informedShare, anchorMs,
  };
}

/**
 * Builds the deterministic market list for a seed (same seed, same list, on every thread);
 * `informedShare` is the world's (`--informed`, 0..1), `anchorMs` where its paths start.
 */
export function buildCatalogue(seed: number, informedShare = INFORMED_SHARE_DEFAULT,
  anchorMs = REFERENCE_INSTANT_MS): SimMarket[] {
  if (!(informedShare >= 0 && informedShare <= 1)) {
    throw new RangeError(`informedShare must be from 0 to 1 (was ${informedShare})`);
  }
  if (!Number.isFinite(anchorMs)) throw new RangeError(`anchorMs must be finite (was ${anchorMs})`);
  const markets: SimMarket[] = TOP.map(([s, vol]) => mainMarket(seed, informedShare, anchorMs, s,
    vol, false));
  REST.forEach((symbol, i) => {
    // Volume decays with rank, jittered per seed.
    const volume = 2e7 * Math.exp(-i / 28) * (0.6 + 0.8 * hashUnit(seed, hashString(symbol), 2));
    markets.push(mainMarket(seed, informedShare, anchorMs, symbol, Math.max(2e4, volume),
      false));
  });
  for (const symbol of DELISTED) markets.push(mainMarket(seed, informedShare, anchorMs, symbol, 0,
    true));
  for (const [symbol, volume, session, isDelisted] of BUILDER) {
    const stream = hashString(symbol);
    const px = referenceMark(symbol);
    markets.push({
      symbol, dex: symbol.slice(0, symbol.indexOf(':')), basePx: px,
      baseVolumeUsd: volume, baseOpenInterestUsd: volume * 0.4,
      szDecimals: szDecimalsFor(px) - 1 < 0 ? 0 : szDecimalsFor(px) - 1,
      maxLeverage: symbol.endsWith('GOLD') || symbol.endsWith('XYZ100') ? 20 : 10,
      isDelisted, onlyIsolated: true, session,
      dailyVol: 0.012 + 0.02 * hashUnit(seed, stream, 8), stream, informedShare, anchorMs,
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
