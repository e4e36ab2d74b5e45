// Converts the reference venue's trades CSV (trade_time_ms, ..., price, size, taker_side,
// trade_id) into trade events for one symbol. taker_side is the aggressor: buy +1, sell -1.
import type { ImportReport } from './hl-ws-raw.js';

const REQUIRED = ['trade_time_ms', 'price', 'size', 'taker_side', 'trade_id'] as const;

/** Returns an error message naming the missing column, or null. */
export function importTradesCsv(text: string, symbol: string, report: ImportReport): string | null {
  const lines = text.split('\n');
  const header = (lines[0] ?? '').trim().split(',');
  const col: Record<string, number> = {};
  for (const name of REQUIRED) {
    col[name] = header.indexOf(name);
    if (col[name] < 0) return `trades CSV: column ${name} expected in the header (was ${lines[0]})`;
  }
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i].trim();
    if (line.length === 0) continue;
    const f = line.split(',');
    const tsMs = Number(f[col.trade_time_ms]);
    const price = Number(f[col.price]);
    const size = Number(f[col.size]);
    const sideText = f[col.taker_side];
    const side = sideText === 'buy' ? 1 : sideText === 'sell' ? -1 : 0;
    const why = !(tsMs > 0) ? 'bad_time' : !(price > 0 && Number.isFinite(price)) ? 'bad_price'
      : !(size > 0 && Number.isFinite(size)) ? 'bad_size' : side === 0 ? 'bad_side' : null;
    if (why) {
      report.dropped[why] = (report.dropped[why] ?? 0) + 1;
      continue;
    }
    report.events.push({ type: 'trade', symbol, tsMs, price, size, side: side as 1 | -1,
      tradeId: f[col.trade_id], buyer: null, seller: null });
  }
  return null;
}
