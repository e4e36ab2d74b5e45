// The HTTP edge of each MCP request, before any MCP exchange: who is calling and the burst guard.
import type { AccessControl, BurstScope, Identity, Outcome } from '../access-types.js';
import { mcpProblems } from './problem.js';
import type { IncomingRequest } from './request.js';
import type { McpMode } from './types.js';

/** Who is calling, and the burst scope their requests count in. */
export interface Caller {
  readonly identity: Identity;
  readonly scope: BurstScope;
}

/**
 * Free mode: the client IP, credentials ignored. API mode: a valid key is required (none or a bad
 * one: 401, no fall-back to free mode). Both take 60 requests a minute (takeBurst).
 */
export function identify(mode: McpMode, incoming: IncomingRequest, access: AccessControl):
  Outcome<Caller> {
  if (mode === 'public') {
    return { ok: true, value: { identity: { kind: 'ip', ip: incoming.ip }, scope: 'mcp-public' } };
  }
  const found = access.identify(incoming.credentials, incoming.ip);
  if (!found.ok) return found;
  if (found.value.kind !== 'key') return { ok: false, problem: mcpProblems.keyRequired() };
  return { ok: true, value: { identity: found.value, scope: 'mcp' } };
}

/**
 * The request's burst slot: in this front's window on one box, in the shared window (Redis)
 * when fronts share their limits, so MCP's 60 a minute hold across all fronts together. The
 * daily quota is not counted here: a tool call counts it when its answer is served (gate.ts).
 */
export function takeBurst(access: AccessControl, caller: Caller):
  Outcome<void> | Promise<Outcome<void>> {
  const { shared } = access;
  if (shared === undefined || !shared.active()) {
    return access.checkBurst(caller.identity, caller.scope);
  }
  return new Promise((resolve) => {
    const now = shared.take(caller.identity, caller.scope, false,
      (outcome, done: (outcome: Outcome<void>) => void) => done(outcome), resolve);
    if (now !== null) resolve(now);
  });
}
