// A seeded BTC-like tape of trades, made beforehand so a timed loop only reads it.

export interface TradeTape {
  readonly price: Float64Array;
  readonly size: Float64Array;
  /** 1 buy, -1 sell. */
  readonly side: Int8Array;
  /** Milliseconds since the trade before. */
  readonly gapMs: Float64Array;
}

export function tradeTape(trades: number, r: () => number): TradeTape {
  const price = new Float64Array(trades);
  const size = new Float64Array(trades);
  const side = new Int8Array(trades);
  const gapMs = new Float64Array(trades);
  let p = 60_000;
  for (let i = 0; i < trades; i++) {
    gapMs[i] = Math.floor(r() * 80);
    p *= 1 + (r() - 0.5) * 2e-4;
    price[i] = p;
    size[i] = 0.001 + r() * r() * 2;
    side[i] = r() < 0.5 ? 1 : -1;
  }
  return { price, size, side, gapMs };
}
