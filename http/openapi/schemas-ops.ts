// Schemas of the answers that are not feed views: problems, usage, health and readiness.
import {
  bool, described, enums, int, nullable, object, oneOf, str, time, type Schema,
} from './schemas-common.js';

export const PROBLEM_CODES = [
  'invalid_key', 'plan_required', 'quota_exceeded', 'rate_limited', 'unknown_symbol',
  'not_tracked', 'bad_request', 'not_found', 'method_not_allowed', 'internal',
  'host_not_allowed', 'origin_not_allowed',
] as const;

export const opsSchemas: Record<string, Schema> = {
  Problem: described(object({
    type: described(str, 'urn:orderflow:problem:<code>'),
    title: str,
    status: int,
    detail: described(str, 'Names the field, what was expected and what was found.'),
    code: oneOf(PROBLEM_CODES),
    requiredPlan: described(enums.plan, '403: the lowest plan that reaches the endpoint.'),
    plan: described(enums.plan, "403: the caller's plan."),
    scope: described(oneOf(['deep-view', 'cvd', 'footprint', 'v1', 'mcp',
      'mcp-public']), '429 burst.'),
    limit: described(int, '429: the burst limit per window, or the daily limit.'),
    windowSeconds: described(int, '429 burst: the rolling window (60).'),
    retryAfterSeconds: described(int, '429 burst: equals the Retry-After header.'),
    used: described(int, '429 daily: requests counted today.'),
    resetsAt: described(time, '429 daily: the next midnight Europe/Rome.'),
  }, ['requiredPlan', 'plan', 'scope', 'limit', 'windowSeconds', 'retryAfterSeconds', 'used',
    'resetsAt']), 'RFC 9457 problem details with a stable machine code.'),
  Usage: object({
    plan: nullable(enums.plan),
    limit: described(int, 'The daily limit applied to this key today (grandfathering included).'),
    used: int,
    remaining: int,
    resetsAt: described(time, 'Next midnight in Europe/Rome, UTC.'),
    timeZone: oneOf(['Europe/Rome']),
    grandfathered: bool,
    grandfatheredUntil: nullable(time),
  }),
  Health: object({ status: oneOf(['ok']) }),
  Readiness: object({
    ready: bool,
    checks: { type: 'object', additionalProperties: bool,
      description: 'Each check: universe, shards, snapshots, pairs, mcp, arrow, warmup, ' +
        "past (the warm-up's bars, signals and history points are written), backfill; on a " +
        'scale-out front: redis, snapshots, ingest, mcp, arrow.' },
    detail: {
      type: 'object', additionalProperties: { type: 'string' },
      description: 'What a check has to say beyond true or false, keyed by check: `backfill` ' +
        '(live feed) counts the pairs filled from candles and names those not filled, with the ' +
        'reason: still filling after the wait (filled later, as the request budget allows), or ' +
        'given up on; `history` (scale-out front) names the history range still being copied ' +
        'from ingest, the points copied so far and why the copy waits, if it does (not a ' +
        'check: the front is ready meanwhile); `shards` names each shard that failed too often ' +
        'and stays down (the service runs degraded: `checks.shards` is false), its last ' +
        'failure and its pairs; `pace` (simulator) says market time runs slower than `--speed` ' +
        'because the shards absorb no more (not a check).',
    },
  }, ['detail']),
};
