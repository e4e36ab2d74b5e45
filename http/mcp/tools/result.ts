// Tool answers: structured content with its text rendering, or a tool error built from a problem.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Problem } from '../../access-types.js';
import { problems } from '../../problems.js';
import type { Row } from './records.js';

export function okResult(structured: Row, text: string): CallToolResult {
  return { structuredContent: { ...structured }, content: [{ type: 'text', text }] };
}

/**
 * A tool error (isError) carrying the problem as text: a sentence for the person, then the
 * problem's JSON for the agent. No structuredContent: clients check it against the output schema.
 */
export function problemResult(problem: Problem): CallToolResult {
  const required = problem.extensions?.requiredPlan;
  const tier = typeof required === 'string' && !problem.detail.includes(required)
    ? ` Requires the ${required} plan.` : '';
  const body = { status: problem.status, code: problem.code, detail: problem.detail,
    ...problem.extensions };
  return {
    isError: true,
    content: [{ type: 'text', text: `${problem.title}: ${problem.detail}${tier}\n` +
      JSON.stringify(body) }],
  };
}

/** Tool-level problems: the REST front's, so a tool error reads like the REST answer. */
export const toolProblems = {
  unknownSymbol: (symbol: string): Problem => problems.unknownSymbol(symbol),
  notTracked: (symbol: string): Problem => problems.notTracked(symbol, 'the deep view'),
  internal: (): Problem => problems.internal(),
} as const;
