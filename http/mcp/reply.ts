// Complete answers the MCP edge gives before the SDK is involved: problems and JSON-RPC errors.
import type { Problem } from '../access-types.js';
import type { Exchange } from './exchange.js';
import { jsonRpcErrorBody, problemBody, type HeaderList } from './problem.js';

export function sendProblem(
  exchange: Exchange, problem: Problem, extraHeaders: HeaderList, closeConnection = false,
): void {
  const headers: HeaderList = [
    ['Content-Type', 'application/problem+json'], ...(problem.headers ?? []), ...extraHeaders,
  ];
  exchange.send(problem.status, headers, problemBody(problem), closeConnection);
}

/** MCP clients read session errors (400, 404) as JSON-RPC error bodies, as the SDK sends them. */
export function sendRpcError(
  exchange: Exchange, status: number, code: number, message: string, extraHeaders: HeaderList,
): void {
  const headers: HeaderList = [['Content-Type', 'application/json'], ...extraHeaders];
  exchange.send(status, headers, jsonRpcErrorBody(code, message));
}
