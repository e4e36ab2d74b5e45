// The eleven API-mode tools of /api/mcp: raw values, each gated by the plan of the REST endpoint
// it reads and counted against the key's daily quota.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ToolDeps } from './common.js';
import { registerApiFeedTools } from './api-feeds.js';
import { registerApiFootprintTools } from './api-footprint.js';
import { registerApiHistoryTools } from './api-history.js';
import { gated } from './gate.js';
import { registerApiPairTools } from './api-pairs.js';
import { usageOutput } from './outputs.js';
import { fields } from './render.js';
import { okResult } from './result.js';
import { noInput } from './schemas.js';

export const API_TOOL_NAMES = [
  'get_screener', 'get_pair', 'get_signals', 'get_smart_money', 'get_deep_view',
  'get_funding_arb', 'get_usage', 'get_history', 'get_signal_performance', 'get_footprint',
  'get_volume_profile',
] as const;

export function registerApiTools(server: McpServer, deps: ToolDeps): void {
  registerApiPairTools(server, deps);
  registerApiFeedTools(server, deps);
  registerApiHistoryTools(server, deps);
  registerApiFootprintTools(server, deps);
  server.registerTool('get_usage', {
    title: 'Daily quota usage',
    description: 'The daily request quota of your API key: plan, limit, used, remaining, and ' +
      'resetsAt (next midnight Europe/Rome, as ISO 8601 UTC). Any plan. Counts as one request.',
    inputSchema: noInput,
    outputSchema: usageOutput,
    annotations: { readOnlyHint: true, openWorldHint: false },
  }, gated(deps, 'get_usage', 'usage', (_args: unknown, identity) => {
    const report = deps.access.usage(identity);
    return okResult({ ...report }, fields({ ...report }));
  }));
}
