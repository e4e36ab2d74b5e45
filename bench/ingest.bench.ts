// Ingest: replay lines through parse + route + a stand-in consumer on one thread, against
// reading and JSON.parse-ing the same file. The lead swaps the consumer for the real kernels.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { measure, printRows, quick, type ReportRow } from './harness.js';
import type { MarketEvent } from '../actors/messages.js';
import { decodeLine } from '../actors/feed/replay/event-codec.js';
import { LineReader } from '../actors/feed/replay/line-reader.js';
import { LineWriter } from '../actors/feed/replay/line-writer.js';
import { IngestGuard } from '../actors/feed/ingest-guard.js';
import { PairSimulator } from '../actors/feed/sim/pair-sim.js';
import { simWorld } from '../actors/feed/sim/sim-world.js';

const SYMBOLS = ['BTC', 'ETH', 'SOL', 'HYPE', 'XRP'];

/** A replay file of simulated liquid pairs (trades, books, ctx); returns its line count. */
function writeFixture(file: string, seconds: number): { lines: number; trades: number } {
  const world = simWorld(1);
  const startMs = Date.parse('2026-02-06T15:00:00Z');
  const writer = new LineWriter(file);
  let trades = 0;
  for (const symbol of SYMBOLS) {
    const sim = new PairSimulator(1, world.bySymbol.get(symbol)!, world.picker, startMs);
    sim.advanceTo(startMs + seconds * 1000, (e) => {
      if (e.type === 'trade') trades++;
      writer.write(e);
    });
  }
  writer.close();
  return { lines: writer.lines, trades };
}

/** Stand-in for the kernels: a few arithmetic operations per trade, per pair. */
class Consumer {
  cvd = 0;
  notional = 0;
  volume = 0;
  trades = 0;
  onEvent(e: MarketEvent): void {
    if (e.type !== 'trade') return;
    const n = e.price * e.size;
    this.cvd += e.side * n;
    this.notional += n;
    this.volume += e.size;
    this.trades++;
  }
}

function readOnly(file: string): number {
  const reader = new LineReader(file);
  let n = 0;
  for (let line = reader.next(); line !== null; line = reader.next()) n += line.length > 0 ? 1 : 0;
  reader.close();
  return n;
}

function readJsonParse(file: string): number {
  const reader = new LineReader(file);
  let n = 0;
  for (let line = reader.next(); line !== null; line = reader.next()) {
    if ((JSON.parse(line) as { tsMs: number }).tsMs > 0) n++;
  }
  reader.close();
  return n;
}

function ingest(file: string, route: boolean): number {
  const reader = new LineReader(file);
  const guard = new IngestGuard();
  guard.setSymbols(SYMBOLS);
  const consumers = new Map(SYMBOLS.map((s) => [s, new Consumer()]));
  let n = 0;
  for (let line = reader.next(); line !== null; line = reader.next()) {
    const e = decodeLine(line);
    if (typeof e === 'string' || !route) continue;
    if (!('symbol' in e) || guard.check(e) !== null) continue;
    consumers.get(e.symbol)?.onEvent(e);
    n++;
  }
  reader.close();
  return n;
}

export async function run(opts: { quick: boolean }): Promise<ReportRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'orderflow-bench-'));
  const file = join(dir, 'ingest.ndjson');
  try {
    const { lines, trades } = writeFixture(file, opts.quick ? 900 : 3_600);
    const runs = opts.quick ? 3 : 5;
    const read = measure('read lines', lines, () => { readOnly(file); }, runs);
    const parse = measure('read + JSON.parse', lines, () => { readJsonParse(file); }, runs);
    const decode = measure('read + decode', lines, () => { ingest(file, false); }, runs);
    const full = measure('read + decode + route + consume', lines, () => { ingest(file, true); },
      runs);
    const tradeShare = trades / lines;
    const row = (figure: string, value: number, unit: string, baseline: number | null,
      target: string, pass: boolean | null): ReportRow => ({ bench: 'ingest', figure, value, unit,
      baseline, ratio: baseline ? value / baseline : null, target, pass });
    return [
      row('read + JSON.parse (baseline)', parse.opsPerSec, 'events/s', null, '-', null),
      row('read + decode (fast trade path)', decode.opsPerSec, 'events/s', parse.opsPerSec,
        'ratio > 1', decode.opsPerSec > parse.opsPerSec),
      row('read + decode + route + consume', full.opsPerSec, 'events/s', parse.opsPerSec,
        'ratio >= 0.5', full.opsPerSec >= parse.opsPerSec * 0.5),
      row('trades through the full path', full.opsPerSec * tradeShare, 'trades/s', null,
        '>= 1e6 (events mixed)', full.opsPerSec * tradeShare >= 1e6),
      row('reading lines only', read.opsPerSec, 'lines/s', parse.opsPerSec, '-', null),
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1]?.endsWith('ingest.bench.ts')) printRows(await run({ quick }));
