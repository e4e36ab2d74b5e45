// The MCP tools' data: the served views parsed back to objects, once per view version, so a tool
// returns exactly what the REST endpoint it mirrors would.
import { LRUCache } from 'lru-cache';
import type { Outcome } from './access-types.js';
import { footprintHandler } from './handlers/footprint.js';
import { historyAnswer } from './handlers/history.js';
import { volumeProfileHandler } from './handlers/volume-profile.js';
import type { FootprintStore } from '../persistence/footprints.js';
import { signalPerformanceAnswer, type SignalSource } from './handlers/signal-history.js';
import type { McpData } from './mcp/types.js';
import type { Payload } from './respond.js';
import type { SnapshotStore } from './snapshots.js';
import { VariantCache } from './variants.js';

/** A REST answer as the JSON value a tool returns. */
function jsonOf(answer: Outcome<Payload>): Outcome<unknown> {
  if (!answer.ok) return answer;
  const { body } = answer.value;
  return { ok: true, value: JSON.parse(typeof body === 'string' ? body
    : Buffer.from(body).toString('utf8')) };
}

/** Parsed views held (one per name; a new version replaces the old). */
const parsedViewsMax = 512;

export function createMcpData(snapshots: SnapshotStore, history?: SignalSource,
  footprints?: FootprintStore): McpData {
  const parsed = new LRUCache<string, { version: number; value: unknown }>({ max: parsedViewsMax });
  const read = (name: string): unknown | undefined => {
    const entry = snapshots.get(name);
    if (!entry) return undefined;
    const cached = parsed.get(name);
    if (cached && cached.version === entry.version) return cached.value;
    const value: unknown = JSON.parse(entry.body.toString('utf8'));
    parsed.set(name, { version: entry.version, value });
    return value;
  };
  return {
    screener: () => read('screener'),
    pair: (symbol) => read(`pair/${symbol}`),
    signals: () => read('signals'),
    smartMoney: () => read('smart-money'),
    deepView: (symbol) => {
      const view = read(`deep-view/${symbol}`);
      if (view !== undefined) return view;
      return snapshots.get(`pair/${symbol}`) ? 'not_tracked' : undefined;
    },
    fundingArb: () => read('funding-arb'),
    ...footprintData(snapshots, footprints ?? null),
    ...(history === undefined ? {} : {
      history: (symbol, params, identity) => jsonOf(historyAnswer(snapshots, history,
        { segment: symbol, params, identity, ifNoneMatch: '' })),
      signalPerformance: (params) => jsonOf(signalPerformanceAnswer(history, params, '')),
    }),
  };
}

/** The footprint and volume-profile answers, by the REST handlers themselves (JSON). */
function footprintData(snapshots: SnapshotStore, store: FootprintStore | null):
  Pick<McpData, 'footprint' | 'volumeProfile'> {
  const variants = new VariantCache();
  const footprint = footprintHandler(snapshots, variants, store);
  const profile = volumeProfileHandler(snapshots, variants, store);
  return {
    footprint: (symbol, params) => jsonOf(footprint({ segment: symbol, params })),
    volumeProfile: (symbol, params) => jsonOf(profile({ segment: symbol, params })),
  };
}
