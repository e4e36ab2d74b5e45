// A real uWS server on port 0 over a seeded store, with keys of every plan and a manual clock.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open } from 'lmdb';
import { ManualClock } from '../../../core/clock.js';
import { openHistoryStore, type HistoryStore } from '../../../persistence/history.js';
import { openFootprintStore, type FootprintStore } from '../../../persistence/footprints.js';
import { openSignalStore, type SignalStore } from '../../../persistence/signals.js';
import type { EntrySignal } from '../../../actors/signals/types.js';
import { resolveConfig, type ServiceConfig } from '../../../core/config.js';
import { silentLogger } from '../../../core/logger.js';
import { PLANS, type KeyRecord, type Plan } from '../../../core/messages.js';
import { startHttpServer, type HttpServer, type RawMount } from '../../../http/server.js';
import type { SnapshotStore } from '../../../http/snapshots.js';
import { keyFor, MemoryKeys, MemoryUsage, seededStore, T0 } from './seed.js';

export interface TestServer {
  readonly url: string;
  readonly server: HttpServer;
  readonly clock: ManualClock;
  readonly store: SnapshotStore;
  readonly keys: MemoryKeys;
  readonly usage: MemoryUsage;
  /** The recorded history behind /api/v1/history (a real lmdb store in a temp folder). */
  readonly history: HistoryStore;
  /** The stored footprint bars behind /api/v1/footprint (same lmdb). */
  readonly footprints: FootprintStore;
  /** A valid key of each plan. */
  readonly keyOf: Readonly<Record<Plan, string>>;
  ready: boolean;
  close(): Promise<void>;
}

export async function startTestServer(options: {
  config?: Partial<ServiceConfig>; nowMs?: number; mounts?: RawMount[];
  /** A history store of the test's own (else an empty one in a temp folder). */
  history?: HistoryStore; signals?: SignalStore<EntrySignal>;
} = {}): Promise<TestServer> {
  const clock = new ManualClock(options.nowMs ?? T0);
  const keys = new MemoryKeys();
  const usage = new MemoryUsage();
  const store = seededStore();
  const keyOf = {} as Record<Plan, string>;
  PLANS.forEach((plan, i) => {
    keyOf[plan] = keyFor(i);
    keys.add(keyOf[plan], plan);
  });
  const state = { ready: true };
  const dir = mkdtempSync(join(tmpdir(), 'orderflow-http-'));
  const root = open({ path: dir });
  const history = options.history ?? openHistoryStore(root);
  const signals = options.signals ?? openSignalStore<EntrySignal>(root);
  const footprints = openFootprintStore(root);
  const server = await startHttpServer({
    config: resolveConfig({ host: '127.0.0.1', port: 0, ...options.config }),
    clock, logger: silentLogger, snapshots: store, keys, usage,
    readiness: () => ({ ready: state.ready, checks: { feeds: state.ready, snapshots: true } }),
    metrics: () => '# TYPE orderflow_runtime_test gauge\norderflow_runtime_test 1\n',
    mounts: options.mounts, history: { store: history, signals, clock }, footprints,
  });
  const result: TestServer = {
    url: `http://127.0.0.1:${server.port}`, server, clock, store, keys, usage, history, footprints,
    keyOf,
    get ready() { return state.ready; },
    set ready(value: boolean) { state.ready = value; },
    close: async () => {
      await server.close();
      await root.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return result;
}

export type { KeyRecord };

/** GET with optional headers; returns status, headers and the body as text and JSON. */
export async function get(url: string, headers: Record<string, string> = {},
  method = 'GET'): Promise<{ status: number; headers: Headers; text: string; json: any }> {
  const response = await fetch(url, { method, headers });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

export const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
