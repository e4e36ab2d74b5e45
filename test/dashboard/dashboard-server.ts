// A real front for dashboard tests: the lmdb store in a temp folder, access control, a running
// webhook supervisor and the uWS server on a free port with the dashboard registered; plus a
// small cookie-keeping client and a webhook receiver that records what it gets.
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { resolveConfig } from '../../core/config.js';
import { createWebhookSupervisor, type WebhookSupervisor } from
  '../../actors/webhooks/supervisor.js';
import { systemClock, type Clock } from '../../core/clock.js';
import { silentLogger } from '../../core/logger.js';
import { createDashboardFor } from '../../bin/dashboard.js';
import { createAccessControl } from '../../http/access.js';
import type { Dashboard } from '../../http/dashboard/index.js';
import { startHttpServer, type HttpServer } from '../../http/server.js';
import { SnapshotStore } from '../../http/snapshots.js';
import { openAccountStore } from '../../persistence/account-store.js';
import { openHistoryStore } from '../../persistence/history.js';
import { openSignalStore, type SignalStore } from '../../persistence/signals.js';
import type { EntrySignal } from '../../actors/signals/types.js';
import { hashPassword } from '../../persistence/passwords.js';
import { openStore, type Store } from '../../persistence/store.js';
import type { Plan } from '../../core/messages.js';
import { tempDir } from '../helpers/eventually.js';

export interface DashboardServer {
  readonly baseUrl: string;
  readonly dataDir: string;
  readonly store: Store;
  readonly webhooks: WebhookSupervisor;
  readonly snapshots: SnapshotStore;
  readonly http: HttpServer;
  readonly dashboard: Dashboard;
  /** The stored entry signals behind /signals/history and /performance, when asked for. */
  readonly signals: SignalStore<EntrySignal> | null;
  createAccount(email: string, password: string, plan: Plan): Promise<void>;
  close(): Promise<void>;
}

export async function startDashboardServer(
  options: { clock?: Clock; signupOpen?: boolean; trustProxy?: string[];
    sessionSweepMs?: number; trackRecord?: boolean } = {},
): Promise<DashboardServer> {
  const clock = options.clock ?? systemClock;
  const dataDir = join(await tempDir('orderflow-dash-'), 'data');
  const config = resolveConfig({ port: 0, dataDir, logLevel: 'silent', allowPrivateWebhooks: true,
    signupOpen: options.signupOpen ?? false, trustProxy: options.trustProxy ?? [] });
  const store = await openStore({ dataDir, clock });
  const access = createAccessControl({ config, clock, keys: store.keys, usage: store.usage });
  const webhooks = createWebhookSupervisor({ root: store.root, clock, logger: silentLogger,
    keys: store.keys, allowPrivate: true, pollIntervalMs: 50 });
  webhooks.start();
  const snapshots = new SnapshotStore();
  const dashboard = createDashboardFor({ config, clock, store, access, webhooks,
    logger: silentLogger, sessionSweepMs: options.sessionSweepMs });
  // Without a signal store the track record answers 503, as on a service still starting.
  const signals = options.trackRecord ? openSignalStore<EntrySignal>(store.root) : null;
  const history = signals === null ? undefined
    : { store: openHistoryStore(store.root), signals, clock };
  const http = await startHttpServer({ config, clock, logger: silentLogger, snapshots,
    keys: store.keys, usage: store.usage, access, dashboard, history,
    readiness: () => ({ ready: true, checks: {} }) });
  const accounts = openAccountStore(store.root);
  return {
    baseUrl: `http://127.0.0.1:${http.port}`, dataDir, store, webhooks, snapshots, http, dashboard,
    signals,
    async createAccount(email, password, plan) {
      await accounts.create({ email, plan, passwordDigest: await hashPassword(password) },
        clock.nowMs());
    },
    async close() {
      await http.close();
      await dashboard.close();
      await webhooks.stop();
      await store.close();
    },
  };
}

/** A browser-like client: keeps the session cookie, sends the service's Origin and CSRF. */
export class Browser {
  cookie = '';
  csrf = '';
  setCookie = '';

  constructor(readonly baseUrl: string) {}

  async call(method: string, path: string, body?: unknown,
    options: { origin?: string | null; csrf?: string | null } = {}) {
    const headers: Record<string, string> = {};
    if (this.cookie) headers.cookie = this.cookie;
    const origin = options.origin === undefined ? this.baseUrl : options.origin;
    if (origin !== null) headers.origin = origin;
    const csrf = options.csrf === undefined ? this.csrf : options.csrf;
    if (csrf) headers['x-csrf-token'] = csrf;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(this.baseUrl + path, {
      method, headers, body: body === undefined ? undefined : JSON.stringify(body),
    });
    const set = response.headers.get('set-cookie');
    if (set) {
      this.setCookie = set;
      this.cookie = set.split(';')[0];
    }
    const text = await response.text();
    return { status: response.status, headers: response.headers,
      body: text && /json/.test(response.headers.get('content-type') ?? '') ? JSON.parse(text)
        : text as any };
  }

  async signIn(email: string, password: string) {
    const answer = await this.call('POST', '/api/v1/account/session', { email, password });
    if (answer.status === 200) this.csrf = answer.body.csrfToken;
    return answer;
  }
}

export interface Received {
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

export async function startReceiver(status = 200):
  Promise<{ url: string; got: Received[]; server: Server; close(): Promise<void> }> {
  const got: Received[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => { body += chunk.toString(); });
    req.on('end', () => {
      got.push({ headers: req.headers, body });
      res.statusCode = status;
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/hook`;
  return { url, got, server, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
