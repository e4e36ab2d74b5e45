// A real front for the Host and Origin rules: the uWS server on a free port with the data
// routes, both MCP endpoints and the dashboard (pages and account API) over a store in a temp
// folder; and a raw HTTP client that can send any Host header (fetch cannot).
import { request } from 'node:http';
import { join } from 'node:path';
import { resolveConfig, type ServiceConfig } from '../../core/config.js';
import { systemClock } from '../../core/clock.js';
import { silentLogger } from '../../core/logger.js';
import { createDashboardFor } from '../../bin/dashboard.js';
import { createAccessControl } from '../../http/access.js';
import { createMcpData } from '../../http/mcp-data.js';
import { createMcpMounts } from '../../http/mcp/index.js';
import { startHttpServer } from '../../http/server.js';
import { openStore } from '../../persistence/store.js';
import { seededStore } from '../http/helpers/seed.js';
import { tempDir } from './eventually.js';

export interface GuardedFront {
  readonly port: number;
  close(): Promise<void>;
}

export async function startGuardedFront(config: Partial<ServiceConfig> = {}):
  Promise<GuardedFront> {
  const dataDir = join(await tempDir('orderflow-hosts-'), 'data');
  const resolved = resolveConfig({ port: 0, dataDir, logLevel: 'silent', limitsEnabled: false,
    ...config });
  const clock = systemClock;
  const store = await openStore({ dataDir, clock });
  const access = createAccessControl({ config: resolved, clock, keys: store.keys,
    usage: store.usage });
  const snapshots = seededStore();
  const mounts = createMcpMounts({ access, data: createMcpData(snapshots), clock,
    logger: silentLogger });
  const dashboard = createDashboardFor({ config: resolved, clock, store, access, webhooks: null,
    logger: silentLogger });
  const http = await startHttpServer({ config: resolved, clock, logger: silentLogger, snapshots,
    keys: store.keys, usage: store.usage, access, dashboard, mounts,
    readiness: () => ({ ready: true, checks: {} }) });
  return {
    port: http.port,
    async close() {
      await mounts.close();
      await http.close();
      await store.close();
    },
  };
}

export interface RawAnswer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

/** One request to 127.0.0.1:port with exactly these headers (Host '' sends none). */
export function send(port: number, method: string, path: string,
  headers: Record<string, string>, body?: string): Promise<RawAnswer> {
  const setHost = headers.host !== '';
  const sent = { ...headers };
  if (!setHost) delete sent.host;
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers: sent, agent: false,
      setHost },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => { text += chunk; });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers,
          body: text }));
      });
    req.on('error', reject);
    req.end(body);
  });
}

/** An MCP initialize request body, the first POST any client sends. */
export const INITIALIZE = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {},
    clientInfo: { name: 'hosts-test', version: '1.0.0' } } });

export const MCP_HEADERS = { 'content-type': 'application/json',
  accept: 'application/json, text/event-stream' };
