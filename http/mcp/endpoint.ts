// The raw uWS handler of one MCP path: edge checks, session routing, then the SDK transport.
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { limits } from '../../core/config.js';
import type { Identity, Outcome } from '../access-types.js';
import { identify, takeBurst } from './admit.js';
import { Exchange } from './exchange.js';
import { mcpProblems, type HeaderList } from './problem.js';
import { sendProblem, sendRpcError } from './reply.js';
import { copyRequest, toWebRequest, type IncomingRequest } from './request.js';
import { openSession, type LiveSession } from './session-factory.js';
import type { SessionTable } from './sessions.js';
import { authInfoFor, type ToolDeps } from './tools/common.js';
import type { McpMode, RawMount } from './types.js';

const methods = ['GET', 'POST', 'DELETE'];
const decoder = new TextDecoder();

export interface EndpointContext {
  readonly deps: ToolDeps;
  readonly sessions: SessionTable<LiveSession>;
  /** Requests not yet answered (open event streams included), across both paths. */
  inFlight: number;
}

export function createHandler(mode: McpMode, ctx: EndpointContext): RawMount['handle'] {
  const { access, logger } = ctx.deps;
  return (res, req, { ip, cors }) => {
    const incoming = copyRequest(req, ip);
    ctx.inFlight += 1;
    const exchange = new Exchange(res, () => {
      ctx.inFlight -= 1;
    });
    if (!methods.includes(incoming.method)) {
      return sendProblem(exchange, mcpProblems.methodNotAllowed(incoming.method), cors);
    }
    const found = identify(mode, incoming, access);
    if (!found.ok) return sendProblem(exchange, found.problem, cors);
    const caller = found.value;
    // Read from now on: uWS hands a body only to a reader attached before this call returns.
    const body = incoming.method === 'POST'
      ? exchange.readBody(limits.httpBodyBytesMax) : Promise.resolve(null);
    const proceed = (burst: Outcome<void>): void => {
      const { identity } = caller;
      const headers = identity.kind === 'key'
        ? [...access.rateLimitHeaders(identity, 'mcp'), ...cors] : cors;
      if (!burst.ok) return sendProblem(exchange, burst.problem, headers);
      serve(mode, ctx, { incoming, exchange, identity, headers }, body)
        .catch((error: unknown) => {
          logger.error('mcp request failed', { error, mode, method: incoming.method });
          sendProblem(exchange, mcpProblems.internal(), headers);
        });
    };
    // The shared burst window answers from Redis a turn later; this front's own at once.
    const burst = takeBurst(access, caller);
    if (burst instanceof Promise) void burst.then(proceed);
    else proceed(burst);
  };
}

interface Call {
  readonly incoming: IncomingRequest;
  readonly exchange: Exchange;
  readonly identity: Identity;
  readonly headers: HeaderList;
}

async function serve(
  mode: McpMode, ctx: EndpointContext, call: Call,
  bodyRead: Promise<Uint8Array | 'too_large' | 'aborted' | null>,
): Promise<void> {
  const { incoming, exchange, identity, headers } = call;
  const body = await bodyRead;
  if (body === 'aborted' || exchange.aborted) return;
  if (body === 'too_large') {
    return sendProblem(exchange, mcpProblems.bodyTooLarge(limits.httpBodyBytesMax), headers, true);
  }
  let parsedBody: unknown;
  if (body !== null) {
    try {
      parsedBody = JSON.parse(decoder.decode(body));
    } catch {
      return sendRpcError(exchange, 400, -32700, 'Parse error: the body must be JSON; was not',
        headers);
    }
  }
  const owner = identity.kind === 'key' ? identity.key.prefix : '';
  const sessionId = incoming.headers.get('mcp-session-id');
  let session: LiveSession | undefined;
  if (sessionId) {
    session = ctx.sessions.use(sessionId, mode, owner);
    if (!session) {
      return sendRpcError(exchange, 404, -32001, 'Session not found: it ended, expired or ' +
        'belongs to another key; initialize a new session', headers);
    }
  } else if (incoming.method === 'POST' && isInitializeRequest(parsedBody)) {
    session = await openSession(mode, owner, ctx.sessions, ctx.deps);
  } else {
    return sendRpcError(exchange, 400, -32000, 'Bad Request: the Mcp-Session-Id header is ' +
      'required (was missing); start with an initialize request', headers);
  }
  const response = await session.transport.handleRequest(
    toWebRequest(incoming, exchange.abortController.signal),
    { parsedBody, authInfo: authInfoFor(identity) },
  );
  // An initialize the transport refused (bad headers) leaves no session behind.
  if (!sessionId && session.transport.sessionId === undefined) {
    ctx.sessions.forget(session.id);
    await session.close();
  }
  await exchange.pipe(response, headers);
}
