// The converter behind `orderflow import`: recorded venue data in, replay events out, sorted by
// time (stable; at equal times universe and funding come first). Same inputs, same bytes.
import { readFileSync } from 'node:fs';
import type { MarketEvent } from '../../../core/messages.js';
import { parseMetaAndAssetCtxs, parsePerpDexs } from '../home/info-mappers.js';
import type { UniverseMarket } from '../../universe/tracked.js';
import { importWsRaw, type ImportReport } from './hl-ws-raw.js';
import { importTradesCsv } from './trades-csv-import.js';

export interface ConvertOptions {
  /** Raw WS recordings (`<ns> <frame>` lines). */
  readonly ws: readonly string[];
  /** metaAndAssetCtxs answers (main dex and builder dexes). */
  readonly meta: readonly string[];
  /** A perpDexs answer: when given, every builder dex of --meta must be listed in it. */
  readonly perpDexs: string | null;
  readonly tradesCsv: readonly string[];
  readonly csvSymbol: string;
  /** Time of the universe event; default: the earliest other event (or the file's mtime: no). */
  readonly universeMs: number | null;
}

export type ConvertResult = { ok: true; events: MarketEvent[]; dropped: Record<string, number> }
  | { ok: false; error: string };

function dexOf(raw: unknown): string {
  const name = (raw as [{ universe?: { name?: string }[] }])?.[0]?.universe?.[0]?.name ?? '';
  return name.includes(':') ? name.slice(0, name.indexOf(':')) : '';
}

export function convert(o: ConvertOptions): ConvertResult {
  const report: ImportReport = { events: [], dropped: {} };
  for (const file of o.ws) importWsRaw(readFileSync(file, 'utf8'), report);
  for (const file of o.tradesCsv) {
    const error = importTradesCsv(readFileSync(file, 'utf8'), o.csvSymbol, report);
    if (error) return { ok: false, error: `${file}: ${error}` };
  }
  const dexes = o.perpDexs ? parsePerpDexs(JSON.parse(readFileSync(o.perpDexs, 'utf8'))) : null;
  if (typeof dexes === 'string') return { ok: false, error: `${o.perpDexs}: ${dexes}` };
  const markets: UniverseMarket[] = [];
  for (const file of o.meta) {
    const raw: unknown = JSON.parse(readFileSync(file, 'utf8'));
    const dex = dexOf(raw);
    if (dexes && dex !== '' && !dexes.includes(dex)) {
      return { ok: false, error: `${file}: dex ${dex} expected in perpDexs (was ${dexes})` };
    }
    const parsed = parseMetaAndAssetCtxs(raw, dex);
    if (typeof parsed === 'string') return { ok: false, error: `${file}: ${parsed}` };
    markets.push(...parsed);
  }
  const firstMs = report.events.reduce((m, e) => Math.min(m, e.tsMs), Infinity);
  const universeMs = o.universeMs ?? (Number.isFinite(firstMs) ? firstMs : null);
  if (markets.length > 0) {
    if (universeMs === null) return { ok: false, error: '--universe-time is needed (no events)' };
    report.events.unshift({ type: 'universe', tsMs: universeMs, markets },
      // Funding on the home venue from each market's context (raw hourly rate).
      ...markets.filter((m) => !m.isDelisted).map((m) => ({ type: 'funding' as const,
        tsMs: universeMs, symbol: m.symbol,
        venues: [{ venue: 'home' as const, rate: m.ctx.fundingRate, intervalHours: 1 }] })));
  }
  const order = (e: MarketEvent) => (e.type === 'universe' ? 0 : e.type === 'funding' ? 1 : 2);
  const events = report.events.map((e, i) => ({ e, i }))
    .sort((a, b) => a.e.tsMs - b.e.tsMs || order(a.e) - order(b.e) || a.i - b.i).map((x) => x.e);
  return { ok: true, events, dropped: report.dropped };
}
