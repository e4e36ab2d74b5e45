// The kernels' public surface for the rest of the project: the per-pair bundle first, then
// the single kernels (for analyze, tests and benches).
export * from './pair-analytics.js';
export * from './pair-options.js';
export * from './pair-snapshot.js';
export * from './pair-json.js';
export {
  BAR_TIMEFRAMES, BAR_TIMEFRAME_MS, CVD_INTERVALS, CVD_INTERVAL_MS, type BarTimeframe,
  type CvdInterval,
} from './timeframes.js';
export {
  closedBarAgo, createBarColumns, createKernelBar, lastClosedBar, openBar, readClosedBars,
  type BarColumns, type KernelBar,
} from './bars.js';
export { readCvdHistory } from './cvd.js';
export { readOfiHistory } from './ofi.js';
export { VPIN_LEVEL_NAMES, type VpinLevelName } from './vpin-level.js';
export { REGIME_NAMES, type RegimeName } from './regime.js';
export { DIRECTION_NAMES, type DirectionName } from './score.js';
export {
  closedFootprintAgo, createFootprintBar, footprintBarsKept, openFootprint,
  type FootprintBar, type FootprintOptions,
} from './footprint.js';
export type { FootprintBasis } from './footprint-bar.js';
export {
  addFootprintToProfile, copyVolumeProfile, createValueArea, createVolumeProfile, valueArea,
  type ValueArea, type VolumeProfile,
} from './volume-profile.js';
export { addSessionBar, createVolumeSessions, type VolumeSessions } from './volume-sessions.js';
