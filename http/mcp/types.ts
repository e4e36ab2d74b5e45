// Types the MCP endpoints share with the HTTP front: the raw mount and the data they read.
import type * as uWS from 'uWebSockets.js';
import type { Clock } from '../../actors/clock.js';
import type { Logger } from '../../actors/logger.js';
import type { AccessControl } from '../access-types.js';

/**
 * A handler that owns the whole request: it reads `req` synchronously, calls `res.onAborted`
 * before any await and answers inside `res.cork`. The lead points REST and MCP at one definition.
 */
export interface RawMount {
  readonly path: string;
  readonly methods: readonly string[];
  handle(res: uWS.HttpResponse, req: uWS.HttpRequest, ctx: { readonly ip: string }): void;
  /** Requests still being answered; the server's close() waits (bounded) for 0. */
  inFlight?(): number;
}

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
