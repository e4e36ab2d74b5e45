// Converts a recorder's raw home-venue WS lines (`<receive time ns> <frame JSON>`) into events.
import type { MarketEvent } from '../../../core/messages.js';
import { parseFrame } from '../home/ws-frames.js';

export interface ImportReport {
  events: MarketEvent[];
  dropped: Record<string, number>;
}

export function importWsRaw(text: string, report: ImportReport): void {
  const seen = new Set<string>();
  const drop = (reason: string) => { report.dropped[reason] = (report.dropped[reason] ?? 0) + 1; };
  for (const line of text.split('\n')) {
    if (line.trim().length === 0) continue;
    const space = line.indexOf(' ');
    const receivedNs = Number(line.slice(0, space));
    if (space < 0 || !Number.isFinite(receivedNs)) {
      drop('malformed');
      continue;
    }
    // Frames without a venue time (activeAssetCtx) take the recorder's receive time.
    const frame = parseFrame(line.slice(space + 1), Math.floor(receivedNs / 1e6));
    if (frame.kind === 'trades') {
      for (const b of frame.bad) drop(b.reason);
      for (const t of frame.trades) {
        // The first frame after subscribing replays recent trades: keep each tid once.
        const key = `${t.symbol}\u0000${t.tradeId}`;
        if (seen.has(key)) drop('duplicate_trade');
        else {
          seen.add(key);
          report.events.push(t);
        }
      }
    } else if (frame.kind === 'book') report.events.push(frame.book);
    else if (frame.kind === 'ctx') report.events.push(frame.ctx);
    else if (frame.kind === 'drop') drop(frame.reason);
  }
}
