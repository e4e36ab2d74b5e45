// The MCP endpoints for AI agents: /api/mcp (API key, eleven tools, raw values) and
// /api/mcp/public (free, five tools, rounded), as raw uWS mounts for the HTTP front.
import { limits } from '../../core/config.js';
import { createHandler, type EndpointContext } from './endpoint.js';
import type { LiveSession } from './session-factory.js';
import { SessionTable } from './sessions.js';
import type { McpDeps, RawMount } from './types.js';

export type { McpData, McpDeps, RawMount } from './types.js';
export { API_TOOL_NAMES } from './tools/api.js';
export { PUBLIC_TOOL_NAMES } from './tools/public.js';

/** Sessions idle this long are closed (30 minutes). */
export const SESSION_IDLE_MS_DEFAULT = 30 * 60 * 1000;

/** The two mounts, plus what the server needs at shutdown and what tests inspect. */
export type McpMounts = RawMount[] & {
  /** Closes every open session (their streams end); call before closing the uWS app. */
  close(): Promise<void>;
  sessionCount(): number;
  /** Requests still being answered on both paths (open event streams included). */
  inFlight(): number;
};

/** How often idle sessions are swept when no request comes in to sweep them (at most). */
const SWEEP_INTERVAL_MS_MAX = 60_000;

export function createMcpMounts(deps: McpDeps): McpMounts {
  const idleMs = deps.sessionIdleMs ?? SESSION_IDLE_MS_DEFAULT;
  const sessions = new SessionTable<LiveSession>({
    idleMs,
    max: deps.sessionsMax ?? limits.mcpSessionsMax,
    clock: deps.clock,
    logger: deps.logger,
  });
  const ctx: EndpointContext = {
    deps: { access: deps.access, data: deps.data, logger: deps.logger.child({ part: 'mcp' }) },
    sessions,
    inFlight: 0,
  };
  const methods = ['GET', 'POST', 'DELETE'] as const;
  const inFlight = () => ctx.inFlight;
  const mounts: RawMount[] = [
    { path: '/api/mcp', methods, handle: createHandler('api', ctx), inFlight },
    { path: '/api/mcp/public', methods, handle: createHandler('public', ctx), inFlight },
  ];
  // Every request sweeps too; the timer only ends sessions idling while no traffic comes.
  // Unreferenced, so it never keeps the process alive; close() clears it.
  const sweeper = setInterval(() => sessions.sweep(), Math.min(idleMs, SWEEP_INTERVAL_MS_MAX));
  sweeper.unref();
  return Object.assign(mounts, {
    close: () => {
      clearInterval(sweeper);
      return sessions.closeAll();
    },
    sessionCount: () => sessions.size,
    inFlight,
  });
}
