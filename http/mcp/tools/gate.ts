// The API-mode gate around every tool of /api/mcp: the key's plan, then its daily quota.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { BurstScope, Endpoint, Identity } from '../../access-types.js';
import { takeBurst } from '../admit.js';
import { identityOf, safely, type ToolDeps, type ToolExtra } from './common.js';
import { problemResult } from './result.js';

/**
 * Wraps a tool body in the REST pipeline's order (http/dispatch.ts): plan gate, then the data,
 * then the daily quota, which counts only an answer that is served. A call refused for its plan
 * or for an unknown symbol costs nothing; once the quota is used up the answer is withheld.
 * With a `scope`, a call the plan admits also takes a slot of that REST burst scope (the
 * footprint's 10 a minute), so MCP is no way around the endpoint's own limit.
 */
export function gated<A>(
  deps: ToolDeps, tool: string, endpoint: Endpoint,
  body: (args: A, identity: Identity) => CallToolResult, scope?: BurstScope,
): (args: A, extra: ToolExtra) => CallToolResult | Promise<CallToolResult> {
  return (args, extra) => safely(deps.logger, tool, () => {
    const identity = identityOf(extra);
    const plan = deps.access.checkPlan(identity, endpoint);
    if (!plan.ok) return problemResult(plan.problem);
    if (scope === undefined) return counted(deps, identity, body(args, identity));
    // The shared burst window answers from Redis a turn later; this front's own at once.
    const burst = takeBurst(deps.access, { identity, scope });
    if (burst instanceof Promise) {
      return burst.then((taken) => (taken.ok ? counted(deps, identity, body(args, identity))
        : problemResult(taken.problem)));
    }
    return burst.ok ? counted(deps, identity, body(args, identity))
      : problemResult(burst.problem);
  });
}

/** A served answer counts one request of the day; a tool error counts nothing. */
function counted(deps: ToolDeps, identity: Identity, result: CallToolResult):
  CallToolResult | Promise<CallToolResult> {
  if (result.isError) return result;
  const { shared } = deps.access;
  // Fronts sharing their limits count the day in Redis: the answer waits for its count.
  if (shared !== undefined && shared.active()) {
    return shared.takeDaily(identity)
      .then((daily) => (daily.ok ? result : problemResult(daily.problem)));
  }
  const daily = deps.access.consumeDaily(identity);
  return daily.ok ? result : problemResult(daily.problem);
}
