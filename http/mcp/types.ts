// Types the MCP endpoints share with the HTTP front: the raw mount and the data they read.
import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import type { AccessControl, Identity, Outcome } from '../access-types.js';

/** The raw mount is the HTTP front's own (one definition for REST and MCP). */
export type { RawMount } from '../dispatch.js';

/**
 * The served views as raw JSON objects, exactly as the REST endpoints return them.
 * `undefined` means an unknown symbol; `'not_tracked'` a listed pair without orderflow data.
 */
export interface McpData {
  screener(): unknown;
  pair(symbol: string): unknown | undefined;
  signals(): unknown;
  smartMoney(): unknown;
  deepView(symbol: string): unknown | 'not_tracked' | undefined;
  fundingArb(): unknown;
  /**
   * GET /api/v1/history/{symbol} as JSON for this identity (its plan's lookback applied), and
   * GET /api/v1/signals/performance; absent where no store is wired (the tools answer 503).
   */
  history?(symbol: string, params: ReadonlyMap<string, string>, identity: Identity):
    Outcome<unknown>;
  signalPerformance?(params: ReadonlyMap<string, string>): Outcome<unknown>;
  /**
   * GET /api/v1/footprint/{symbol} and /api/v1/volume-profile/{symbol} as JSON (the problem
   * of a bad parameter, an unknown or untracked symbol); absent, the tools answer 503.
   */
  footprint?(symbol: string, params: ReadonlyMap<string, string>): Outcome<unknown>;
  volumeProfile?(symbol: string, params: ReadonlyMap<string, string>): Outcome<unknown>;
}

export interface McpDeps {
  readonly access: AccessControl;
  readonly data: McpData;
  /** The service (delivery) clock: session idle time runs on it. */
  readonly clock: Clock;
  readonly logger: Logger;
  /** A session with no request for this long is closed; default 30 minutes. */
  readonly sessionIdleMs?: number;
  /** Open sessions across both paths; default limits.mcpSessionsMax. Full: drop the oldest. */
  readonly sessionsMax?: number;
}

/** Free mode (`/api/mcp/public`, rounded values) or API mode (`/api/mcp`, keyed, raw values). */
export type McpMode = 'public' | 'api';
