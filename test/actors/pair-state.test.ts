// Save -> restore -> continue equals an uninterrupted run (issue #18, part 4): the pair engine
// runs the recorded BTC tape whole, and again cut in two with its state saved after the first
// half and restored into a fresh engine; every publish after the cut (views' bytes, summaries,
// closed bars and signals, whale prints, history points) is identical. Refused states change
// nothing and say why.
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { Packr } from 'msgpackr';
import { createPairEngine, type PairEngine, type PairPublish }
  from '../../actors/shard/pair-engine.js';
import { parseTradesCsv } from '../../actors/feed/trades-csv.js';
import type { MarketEvent } from '../../core/messages.js';
import { venueFixture } from '../helpers/fixtures.js';

const MINUTE_MS = 60_000;
const decoder = new TextDecoder();

/**
 * The tape, made long enough to close bars of every timeframe and fill VPIN's distribution:
 * 6 hours of 1-minute candles before it (warm-up or backfill), then the recorded trades played
 * three times back to back, with a book every 40 trades and the asset context every minute.
 */
function btcTape(): MarketEvent[] {
  const csv = parseTradesCsv(readFileSync(
    venueFixture('binance_usdm_btcusdt_2024-08-08_trades.csv'), 'utf8'));
  if (!csv.ok) throw new Error(csv.message);
  const t = csv.value;
  const firstMs = t.tsMs[0];
  const spanMs = t.tsMs[t.count - 1] - firstMs + MINUTE_MS;
  const events: MarketEvent[] = [];
  const ctx = (tsMs: number, markPx: number): MarketEvent => ({ type: 'ctx', symbol: 'BTC',
    tsMs, markPx, prevDayPx: 61_000, dayNtlVlm: 61_800 * 50 * 20, openInterest: 50_000,
    fundingRate: 0.0000125, oraclePx: markPx, midPx: markPx });
  const candlesFromMs = Math.floor(firstMs / MINUTE_MS) * MINUTE_MS - 360 * MINUTE_MS;
  let px = t.price[0];
  for (let m = 0; m < 360; m++) {
    const openMs = candlesFromMs + m * MINUTE_MS;
    if (m % 60 === 0) events.push(ctx(openMs, px));
    const close = px * (1 + 0.0007 * Math.sin(m * 0.37) + 0.0003 * Math.cos(m * 1.3));
    events.push({ type: 'candle', symbol: 'BTC', tsMs: openMs, intervalMs: MINUTE_MS, open: px,
      high: Math.max(px, close) * 1.0004, low: Math.min(px, close) * 0.9996, close,
      volume: 8 + (m % 7) });
    px = close;
  }
  for (let pass = 0; pass < 3; pass++) {
    const shiftMs = pass * spanMs;
    let nextCtxMs = -Infinity;
    for (let i = 0; i < t.count; i++) {
      const tsMs = t.tsMs[i] + shiftMs;
      const price = t.price[i];
      if (tsMs >= nextCtxMs) {
        events.push(ctx(tsMs, price));
        nextCtxMs = tsMs + MINUTE_MS;
      }
      events.push({ type: 'trade', symbol: 'BTC', tsMs, price, size: t.size[i],
        side: t.side[i] > 0 ? 1 : -1, tradeId: String(i + pass * t.count),
        buyer: `0xb${i % 11}`, seller: `0x5${i % 13}` });
      if (i % 40 === 0) {
        const q = 1 + (i % 9);
        events.push({ type: 'book', symbol: 'BTC', tsMs, bids: [price - 0.1, q, price - 0.2, 3],
          asks: [price + 0.1, 10 - q, price + 0.2, 4] });
      }
    }
  }
  return events;
}

const tape = btcTape();
/** Events between two publishes (the shard publishes once per cadence). */
const publishEvery = 500;

function newEngine(): PairEngine {
  return createPairEngine('BTC', { cadenceMs: 1_000, wallNowMs: () => 0 });
}

/** A publish in comparable form: bytes as text, everything else as it is. */
function comparable(out: PairPublish | null): unknown {
  if (out === null) return null;
  const views = Object.fromEntries(Object.entries(out.views.views)
    .map(([kind, bytes]) => [kind, decoder.decode(bytes)]));
  return { ...out, views: { ...out.views, views } };
}

/** Runs tape[from, to) into `engine`, publishing every `publishEvery` events. */
function run(engine: PairEngine, from: number, to: number): unknown[] {
  const outs: unknown[] = [];
  for (let i = from; i < to; i++) {
    engine.onEvent(tape[i]);
    if ((i + 1) % publishEvery === 0 || i === to - 1) outs.push(comparable(engine.publish(0)));
  }
  return outs;
}

/** A cut right after a publish, past the middle of the tape. */
const cut = Math.ceil((tape.length * 0.55) / publishEvery) * publishEvery;

test('the tape exercises what a saved state must carry', () => {
  const outs = run(newEngine(), 0, tape.length) as ({ outbound: { kind: string }[];
    history: unknown[]; whalePrints: unknown[]; views: { summary: Record<string, unknown> } })[];
  const all = <T>(f: (o: (typeof outs)[number]) => T[]) => outs.flatMap(f);
  assert.ok(all((o) => o.outbound).filter((o) => o.kind === 'bar').length > 80, 'closed bars');
  assert.ok(all((o) => o.history).length > 15, 'history minutes');
  const last = outs[outs.length - 1].views.summary;
  assert.type(last.vpin, 'number');
  assert.type(last.cvd, 'number');
});

test('save -> restore -> continue equals the uninterrupted run on the BTC tape', () => {
  const whole = run(newEngine(), 0, tape.length);
  const first = newEngine();
  const before = run(first, 0, cut);
  const saved = first.saveState();
  assert.ok(saved instanceof Uint8Array && saved.byteLength > 1_000);
  const second = newEngine();
  const result = second.restoreState(saved!);
  assert.equal(result, { restored: true, marketMs: (tape[cut - 1] as { tsMs: number }).tsMs });
  const after = run(second, cut, tape.length);
  const expected = whole.slice(before.length);
  assert.is(after.length, expected.length);
  for (let k = 0; k < after.length; k++) assert.equal(after[k], expected[k], `publish ${k}`);
  // Restoring the state twice in a row (a second restart) changes nothing either.
  const third = newEngine();
  third.restoreState(second.saveState()!);
  const fourth = newEngine();
  fourth.restoreState(saved!);
  run(fourth, cut, tape.length);
  assert.equal(third.saveState(), fourth.saveState(), 'same state at the end');
});

test('without the state the continued run differs (the comparison above can fail)', () => {
  const whole = run(newEngine(), 0, tape.length);
  const before = run(newEngine(), 0, cut).length;
  const fresh = run(newEngine(), cut, tape.length);
  assert.not.equal(fresh, whole.slice(before));
});

test('a refused state says why and leaves the fresh engine as it was', () => {
  const first = newEngine();
  run(first, 0, 5_000);
  const saved = first.saveState()!;
  const packr = new Packr({ moreTypes: true, useRecords: false });
  const record = packr.unpack(inflateRawSync(saved)) as Record<string, unknown>;
  const pack = (value: unknown) => deflateRawSync(packr.pack(value));
  const variants: [string, Uint8Array, RegExp][] = [
    ['garbage', new Uint8Array([0xc1, 1, 2]), /undecodable|not a pair state/],
    ['not deflated', packr.pack(record), /undecodable/],
    ['older format', pack({ ...record, format: 0 }), /format 0/],
    ['another pair', pack({ ...record, symbol: 'ETH' }), /state of ETH/],
    ['other options', pack({ ...record, fingerprint: 'x' }), /other options/],
    ['other shape', pack(reshaped(record)), /does not fit at state\.kernels\.cvd/],
  ];
  const reference = run(newEngine(), 0, 200);
  for (const [what, bytes, reason] of variants) {
    const engine = newEngine();
    const result = engine.restoreState(bytes);
    assert.is(result.restored, false, what);
    if (!result.restored) assert.match(result.reason, reason, what);
    assert.equal(run(engine, 0, 200), reference, `${what}: engine unchanged`);
  }
  assert.is(newEngine().saveState(), null, 'nothing to save before any event');
});

/** The record with one of the CVD kernel's typed arrays one element short. */
function reshaped(record: Record<string, unknown>): Record<string, unknown> {
  const image = structuredClone(record.image) as { tree: { kernels: { cvd: object } } };
  const cvd = image.tree.kernels.cvd as Record<string, unknown>;
  const key = Object.keys(cvd).find((k) => cvd[k] instanceof Float64Array)!;
  cvd[key] = (cvd[key] as Float64Array).subarray(1).slice();
  return { ...record, image };
}

test.run();
