// Bounds of the HTTP front that core/config.ts does not declare: they concern only the front.

export const httpBounds = Object.freeze({
  /** Burst-guard identities (identity x scope) held; when full the least recently used goes. */
  burstEntriesMax: 100_000,
  /**
   * Credential -> key digest memo, per spelling; when full it starts afresh (a miss costs one
   * SHA-256).
   */
  keyDigestsMax: 10_000,
  /** Serialized variants (cvd slices, CSV) held; least recently used evicted past either bound. */
  variantsMax: 2_000,
  variantBytesMax: 64 * 1024 * 1024,
  /** Parsed JSON views (one per view version) held for building variants. */
  parsedViewsMax: 256,
  /** Snapshot views held by the store: every listed market has a handful of views. */
  snapshotViewsMax: 20_000,
  /**
   * Request paths -> route match, and symbols -> view names, memoized for the polls' hot path
   * (no string or object built per request); when full a memo starts afresh.
   */
  pathMemoMax: 4_096,
  /**
   * Query strings -> parsed parameters, memoized per route for the polls' hot path; longer
   * strings are parsed every time, and when full a memo starts afresh.
   */
  queryMemoMax: 1_024,
  queryMemoTextMax: 256,
  /** A query string of more parameters than this is refused with 400. */
  queryParamsMax: 16,
  /** Bytes of an X-Forwarded-For header read; entries past it are ignored. */
  forwardedForBytesMax: 1_024,
  /** How long close() lets mounted handlers finish before connections are cut. */
  closeGraceMs: 1_000,
});
