// The HTTP edge of each MCP request, before any MCP exchange: who is calling and the burst guard.
import type { AccessControl, Identity, Outcome } from '../access-types.js';
import { mcpProblems } from './problem.js';
import type { IncomingRequest } from './request.js';
import type { McpMode } from './types.js';

/**
 * Free mode: the client IP, 60 requests a minute, credentials ignored. API mode: a valid key is
 * required (none or a bad one: 401, no fall-back to free mode), then 60 a minute per key.
 */
export function admit(mode: McpMode, incoming: IncomingRequest, access: AccessControl):
  Outcome<Identity> {
  if (mode === 'public') {
    const identity: Identity = { kind: 'ip', ip: incoming.ip };
    const burst = access.checkBurst(identity, 'mcp-public');
    return burst.ok ? { ok: true, value: identity } : burst;
  }
  const found = access.identify(incoming.credentials, incoming.ip);
  if (!found.ok) return found;
  if (found.value.kind !== 'key') return { ok: false, problem: mcpProblems.keyRequired() };
  const burst = access.checkBurst(found.value, 'mcp');
  return burst.ok ? found : burst;
}
