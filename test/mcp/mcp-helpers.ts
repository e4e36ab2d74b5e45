// A minimal uWS app on port 0 routing the two MCP paths to the mounts, and SDK clients for it.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ManualClock } from '../../core/clock.js';
import { silentLogger } from '../../core/logger.js';
import type { AccessControl } from '../../http/access-types.js';
import { createMcpMounts, type McpData, type McpMounts } from '../../http/mcp/index.js';
import { FakeAccess, fakeData } from './mcp-fixtures.js';

export interface TestServer {
  readonly baseUrl: string;
  readonly access: FakeAccess;
  readonly clock: ManualClock;
  readonly mounts: McpMounts;
  close(): Promise<void>;
}

export async function startServer(
  options: {
    sessionIdleMs?: number; sessionsMax?: number;
    /** Another AccessControl in place of the fake (e.g. the real one). */
    accessFor?: (clock: ManualClock) => AccessControl;
    /** Data of the test's own in place of the fixed views. */
    data?: McpData;
  } = {},
): Promise<TestServer> {
  const clock = new ManualClock(Date.parse('2026-10-01T12:00:00Z'));
  const access = new FakeAccess(clock);
  const { accessFor, data, ...limits } = options;
  const mounts = createMcpMounts({ access: accessFor ? accessFor(clock) : access,
    data: data ?? fakeData, clock, logger: silentLogger, ...limits });
  // uvu -r tsx loads tests as CommonJS, and uWebSockets.js is ESM only: import it dynamically.
  const uWS = await import('uWebSockets.js');
  const app = uWS.App();
  for (const mount of mounts) {
    app.any(mount.path, (res, req) => {
      const ip = Buffer.from(res.getRemoteAddressAsText()).toString();
      mount.handle(res, req, { ip, cors: [['Access-Control-Allow-Origin', '*']] });
    });
  }
  const port = await new Promise<number>((resolve, reject) => {
    app.listen('127.0.0.1', 0, (token) => {
      if (token) resolve(uWS.us_socket_local_port(token));
      else reject(new Error('listen failed'));
    });
  });
  return {
    baseUrl: `http://127.0.0.1:${port}`, access, clock, mounts,
    close: async () => {
      await mounts.close();
      app.close();
    },
  };
}

export type KeySpelling = 'bearer' | 'x-api-key' | 'query';

export async function connect(
  server: { readonly baseUrl: string }, path: '/api/mcp' | '/api/mcp/public',
  key?: string, spelling: KeySpelling = 'bearer',
): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const url = new URL(server.baseUrl + path);
  const headers: Record<string, string> = {};
  if (key !== undefined && spelling === 'bearer') headers.authorization = `Bearer ${key}`;
  if (key !== undefined && spelling === 'x-api-key') headers['x-api-key'] = key;
  if (key !== undefined && spelling === 'query') url.searchParams.set('api_key', key);
  const transport = new StreamableHTTPClientTransport(url, { requestInit: { headers } });
  const client = new Client({ name: 'orderflow-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport };
}

export async function call(client: Client, name: string, args: Record<string, unknown> = {}):
  Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

export function textOf(result: CallToolResult): string {
  return result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
}

/** A raw initialize POST, for checking HTTP-level answers the SDK client hides. */
export function rawInitialize(url: string, headers: Record<string, string> = {}):
  Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream',
      ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {
      protocolVersion: '2025-06-18', capabilities: {},
      clientInfo: { name: 'raw', version: '1.0.0' } } }),
  });
}
