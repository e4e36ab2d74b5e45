// Pieces every tool uses: who is calling, symbol lookup, and turning a failure into a tool error.
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../../../core/logger.js';
import type { AccessControl, Identity } from '../../access-types.js';
import type { McpData } from '../types.js';
import { problemResult, toolProblems } from './result.js';

export interface ToolDeps {
  readonly access: AccessControl;
  readonly data: McpData;
  readonly logger: Logger;
}

/** The part of the SDK's handler context the tools read. */
export interface ToolExtra {
  readonly authInfo?: AuthInfo;
}

/** The endpoint hands each request's identity to the tools through the SDK's authInfo. */
export function authInfoFor(identity: Identity): AuthInfo {
  const clientId = identity.kind === 'key' ? identity.key.prefix : `ip:${identity.ip}`;
  return { token: '', clientId, scopes: [], extra: { identity } };
}

export function identityOf(extra: ToolExtra): Identity {
  const identity = extra.authInfo?.extra?.identity as Identity | undefined;
  if (identity?.kind !== 'key' && identity?.kind !== 'ip') {
    throw new Error('an API-mode tool ran without the identity of its request');
  }
  return identity;
}

/** Looks a symbol up as given, then with its ticker in upper case ("btc" finds BTC). */
export function lookupSymbol<T>(find: (symbol: string) => T | undefined, symbol: string):
  { symbol: string; found: T | undefined } {
  const exact = find(symbol);
  if (exact !== undefined) return { symbol, found: exact };
  const colon = symbol.indexOf(':');
  const upper = symbol.slice(0, colon + 1) + symbol.slice(colon + 1).toUpperCase();
  return upper === symbol ? { symbol, found: undefined } : { symbol: upper, found: find(upper) };
}

/** The query a REST client would send for a tool's arguments (undefined ones left out). */
export function queryOf(entries: Record<string, string | number | undefined>):
  Map<string, string> {
  const out = new Map<string, string>();
  for (const [name, value] of Object.entries(entries)) {
    if (value !== undefined) out.set(name, String(value));
  }
  return out;
}

/**
 * Runs a tool body; a throw (or a rejection, for a body that waits on the shared quota) is a bug
 * in the service, logged and answered as an internal error.
 */
export function safely(logger: Logger, tool: string, body: () => CallToolResult):
  CallToolResult;
export function safely(logger: Logger, tool: string,
  body: () => CallToolResult | Promise<CallToolResult>): CallToolResult | Promise<CallToolResult>;
export function safely(logger: Logger, tool: string,
  body: () => CallToolResult | Promise<CallToolResult>): CallToolResult | Promise<CallToolResult> {
  const failed = (error: unknown): CallToolResult => {
    logger.error('mcp tool failed', { tool, error });
    return problemResult(toolProblems.internal());
  };
  try {
    const result = body();
    return result instanceof Promise ? result.catch(failed) : result;
  } catch (error) {
    return failed(error);
  }
}
