// Opens one MCP session: an McpServer with the mode's tools on its own Streamable HTTP transport.
import { randomUUID } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { noSchemaValidator } from './no-schema-validator.js';
import type { SessionTable, McpSession } from './sessions.js';
import { registerApiTools } from './tools/api.js';
import type { ToolDeps } from './tools/common.js';
import { registerPublicTools } from './tools/public.js';
import type { McpMode } from './types.js';

export interface LiveSession extends McpSession {
  readonly transport: WebStandardStreamableHTTPServerTransport;
}

const instructions: Record<McpMode, string> = {
  api: 'Orderflow analytics for perpetual futures on the home venue, with raw values. Each ' +
    'tool call costs one request of your API key\'s daily quota (get_usage shows it); a tool ' +
    'above your plan answers an error naming the plan it needs. Data refreshes about once a ' +
    'second; updatedAt and cadenceMs say how fresh an answer is.',
  public: 'Free orderflow market data for perpetual futures on the home venue: screener, one ' +
    'pair, top movers, funding extremes and a market summary, rounded for display. No key; ' +
    '60 requests a minute per IP. Use /api/mcp with an API key for raw values and more tools.',
};

/** The session is in the table (and counts against its bound) before its initialize runs. */
export async function openSession(
  mode: McpMode, owner: string, sessions: SessionTable<LiveSession>, deps: ToolDeps,
): Promise<LiveSession> {
  const id = randomUUID();
  const server = new McpServer(
    { name: mode === 'api' ? 'orderflow' : 'orderflow-public', version: '1.0.0' },
    { capabilities: { tools: {} }, instructions: instructions[mode],
      jsonSchemaValidator: noSchemaValidator },
  );
  if (mode === 'api') registerApiTools(server, deps);
  else registerPublicTools(server, deps);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: () => id,
    onsessionclosed: (closedId) => sessions.forget(closedId),
  });
  transport.onclose = () => sessions.forget(id);
  await server.connect(transport);
  const session: LiveSession = { id, mode, owner, lastSeenMs: 0, transport,
    close: () => server.close() };
  sessions.add(session);
  return session;
}
