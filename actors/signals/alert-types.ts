// Alert definitions: the Entry Signal alert (entry_signal.created) and the five kinds that send
// alert.triggered. Stored as plain records; every time is market time, epoch ms.
import type { Grade, Timeframe } from '../../core/messages.js';

export const ALERT_KINDS = [
  'entry_signal', 'price', 'screener', 'sweep', 'delta_flip', 'drawing',
] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

/** Screener fields an alert can watch (the screener row's fields, fundingAnnualized %). */
export const SCREENER_FIELDS = [
  'price', 'change24h', 'volume24h', 'openInterest', 'fundingRate', 'fundingAnnualized',
] as const;
export type ScreenerField = (typeof SCREENER_FIELDS)[number];

export interface EntrySignalAlertSpec {
  readonly kind: 'entry_signal';
  readonly symbols: 'all' | readonly string[];
  readonly timeframes: readonly Timeframe[];
  readonly minGrade: Grade;
}
/** Price crosses `level` upward (above) or downward (below). */
export interface PriceAlertSpec {
  readonly kind: 'price';
  readonly symbol: string;
  readonly level: number;
  readonly direction: 'above' | 'below';
}
/** A screener field goes above or below a value, for one symbol or every listed one. */
export interface ScreenerAlertSpec {
  readonly kind: 'screener';
  readonly symbol: string;
  readonly field: ScreenerField;
  readonly condition: 'above' | 'below';
  readonly value: number;
}
/** Liquidity beyond a level is swept: price trades through it, then a bar closes back. */
export interface SweepAlertSpec {
  readonly kind: 'sweep';
  readonly symbol: string;
  readonly level: number;
  /** 'high': resting liquidity above the level; 'low': below it. */
  readonly side: 'high' | 'low';
  readonly timeframe: Timeframe;
}
/** The slope of CVD over the last windowBars bars changes sign. */
export interface DeltaFlipAlertSpec {
  readonly kind: 'delta_flip';
  readonly symbol: string;
  readonly timeframe: Timeframe;
  readonly windowBars: number;
  /** 'up': from falling to rising; 'down': the reverse; 'any': both. */
  readonly direction: 'any' | 'up' | 'down';
}
export interface DrawingPoint {
  readonly timeMs: number;
  readonly price: number;
}
/** Price crosses the straight line through two points, extended both ways. */
export interface DrawingAlertSpec {
  readonly kind: 'drawing';
  readonly symbol: string;
  readonly point1: DrawingPoint;
  readonly point2: DrawingPoint;
  readonly direction: 'any' | 'above' | 'below';
}

export type AlertSpec = EntrySignalAlertSpec | PriceAlertSpec | ScreenerAlertSpec |
  SweepAlertSpec | DeltaFlipAlertSpec | DrawingAlertSpec;

export interface AlertCommon {
  /** `alr_` + 16 hex. */
  readonly id: string;
  /** The public prefix of the key (account) that owns the alert. */
  readonly keyPrefix: string;
  /** Delivered only when it is a registered endpoint of the same account. */
  readonly webhookUrl: string;
  /** Minimum market time between two firings; 0 for none. */
  readonly cooldownMs: number;
  readonly createdAtMs: number;
}

export type AlertRecord = AlertCommon & AlertSpec;
export type AlertOf<K extends AlertKind> = AlertCommon & Extract<AlertSpec, { kind: K }>;

/** Cooldown when none is given: the screener's conditions can hold for hours. */
export const DEFAULT_COOLDOWN_MS: { readonly [kind in AlertKind]: number } = Object.freeze({
  entry_signal: 0, price: 0, screener: 3_600_000, sweep: 0, delta_flip: 0, drawing: 0,
});
