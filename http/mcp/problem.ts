// Error answers of the MCP endpoints: RFC 9457 problems at the HTTP edge (the REST front's
// factory table and body, so both answer alike), JSON-RPC error bodies inside MCP.
import { STATUS_CODES } from 'node:http';
import type { Problem } from '../access-types.js';
import { problems } from '../problems.js';

export { problemBody } from '../problems.js';

export type HeaderList = readonly (readonly [string, string])[];

/** `"404 Not Found"`: uWS wants the whole status line after the protocol. */
export function statusLine(status: number): string {
  return `${status} ${STATUS_CODES[status] ?? ''}`.trimEnd();
}

/** The problems the MCP edge makes itself; the rest come from AccessControl. */
export const mcpProblems = {
  keyRequired: (): Problem => problems.invalidKey('/api/mcp needs an API key (Authorization: ' +
    'Bearer <API_KEY>, x-api-key or api_key; none was sent); /api/mcp/public needs none'),
  bodyTooLarge: (bytesMax: number): Problem =>
    problems.badRequest(`request body must be at most ${bytesMax} bytes (was larger)`, 413),
  methodNotAllowed: (method: string): Problem =>
    problems.methodNotAllowed(method, 'GET, POST, DELETE'),
  internal: (): Problem => problems.internal(),
} as const;

/** A JSON-RPC error body, the form MCP clients read on 400 and 404 session answers. */
export function jsonRpcErrorBody(code: number, message: string): string {
  return JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null });
}
