// The webhook section of the OpenAPI document (OpenAPI 3.1 `webhooks`): the envelope, the
// headers of a delivery, and the data of each event type with its allowed values.
import { GRADES, TIMEFRAMES } from '../../core/messages.js';
import {
  FIRST_LEVEL_HITS, FLOW_SOURCES, GRADE_BASES, LOGIC_NAMES, SIGNAL_REGIMES,
} from '../../actors/signals/types.js';
import {
  bool, described, int, nullable, num, object, oneOf, str, time, type Schema,
} from './schemas-common.js';

const side = oneOf(['long', 'short']);
const grade = described(oneOf(GRADES), 'A+ best; "lowered one step" moves one place right.');

export const entrySignal = object({
  signal_id: described(str, '<symbol>-<timeframe>-<bar_time_epoch_ms>-<side>'),
  symbol: str, timeframe: oneOf(TIMEFRAMES), side, grade, score: num, bar_time: time,
  regime: oneOf(SIGNAL_REGIMES), confirmed: bool, flow_source: oneOf(FLOW_SOURCES),
  logics: object(Object.fromEntries(LOGIC_NAMES.map((name) => [name, bool]))),
  plan: object({ entry: num, stop: num, t1: num, t2: num, r_t1: num, r_t2: num }),
  price_at_signal: num, chart_url: described(str, 'URL'),
  session: described(oneOf(['closed']), 'Builder markets outside their session only.'),
  grade_before_session: grade,
  grade_rules: described(oneOf(GRADES), 'The rule grade (count of logics, nudged by the ' +
    'score, at most C: B and better come from evidence), before any session lowering.'),
  grade_basis: described(oneOf(GRADE_BASES), '"evidence" when the setup had at least 30 ' +
    'outcomes evaluated before the bar opened and `grade` comes from their lower bound; ' +
    'else "rules" (`grade` is the rule grade).'),
  grade_evidence: described(object({
    n: described(int, "Outcomes of the signal's setup evaluated before its bar opened."),
    expectancy_r: described(nullable(num), 'Their mean in R shrunk toward the pooled mean ' +
      'with weight n / (n + 30); null while no outcome at all was evaluated.'),
    lower_r: described(nullable(num), 'expectancy_r - 1.96 s / sqrt(n + 30); null below 2.'),
  }), 'Setup: side-relative score sign, true logics, timeframe, regime (docs/signals.md).'),
}, ['session', 'grade_before_session']);

const outcomeProperties = {
  entry_event_id: described(str, 'Id of the entry_signal.created event this outcome follows: ' +
    'a delivery always carries it.'),
  signal_id: str, symbol: str, timeframe: oneOf(TIMEFRAMES), side, grade,
  horizon: oneOf(['4h']),
  signaled_at: described(time, "Market time: the close of the signal's bar."),
  evaluated_at: described(time, 'Market time: signaled_at plus exactly the 4 h horizon.'),
  price_at_signal: num,
  price_after: num, move_pct: num, max_favorable_pct: num,
  max_adverse_pct: described(num, 'Worst excursion, <= 0.'),
  first_level_hit: oneOf(FIRST_LEVEL_HITS), t2_hit: bool,
  complete: described(bool, 'false when fewer than the 48 window bars were stored (`bars` ' +
    'says how many): the pair had no trade in some 5 minutes (a closed session) or the window ' +
    "lies in the simulator warm-up's hourly candles. Final either way, not a pending state."),
  t2_touched_any: bool,
  bars: described(int, 'Window bars the figures came from: 48 when complete.'),
  exit_price: described(num, 'Where the first level touched fills: the stop (also for ' +
    'both_same_bar) or t1, or the open of a bar that opened past it; price_after when neither.'),
};

/** signal.outcome's data: sent only for a signal whose entry event was sent. */
export const outcome = object(outcomeProperties, ['exit_price']);

/** An outcome as /signals/history lists it: kept for every signal, sent or not. */
export const storedOutcome = object({ ...outcomeProperties,
  entry_event_id: described(nullable(str), 'Id of the entry_signal.created event this outcome ' +
    'follows; null when no event was sent (no alert matched, or the signal closed during the ' +
    'warm-up or a backfill).') }, ['bars', 'exit_price']);

const alertTriggered = object({
  alert_kind: oneOf(['price', 'screener', 'sweep', 'delta_flip', 'drawing']),
  symbol: str, price: num, time, funding_annualized_pct: { type: ['number', 'null'] },
});

const testData = object({ message: str, endpoint_id: str });

function envelope(type: string, data: Schema): Schema {
  return object({
    id: described(str, 'evt_ + 24 hex; the same on every retry: store it, ignore duplicates.'),
    type: oneOf([type]), version: oneOf(['1']),
    created_at: described(time, 'ISO 8601 UTC with milliseconds.'), data,
  });
}

const deliveryHeaders = [
  ['X-Service-Event', 'The event type.'],
  ['X-Service-Event-Id', 'The event id (also in the body).'],
  ['X-Service-Delivery', 'A new UUID for every attempt.'],
  ['X-Service-Attempt', 'Attempt number, from 1.'],
  ['X-Service-Timestamp', 'Unix seconds; reject when more than 300 s from your clock.'],
  ['X-Service-Signature', 'v1=<hex HMAC-SHA256 of "<timestamp>.<raw body>">; for 24 h after a ' +
    'rotation two entries, v1=<new>,v1=<old>: accept when any matches.'],
].map(([name, description]) => ({ name, in: 'header', required: true, description,
  schema: { type: 'string' } }));

function webhook(type: string, summary: string, data: Schema): Schema {
  return {
    post: {
      summary,
      description: 'POSTed to your registered endpoint. Any 2xx within 10 s is success; ' +
        'anything else is retried 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h after the first ' +
        'attempt (8 in all, up to 10 % jitter), then dead-lettered. 410 disables the endpoint.',
      parameters: deliveryHeaders,
      requestBody: { required: true, content: { 'application/json': {
        schema: envelope(type, data) } } },
      responses: { '200': { description: 'Received (any 2xx).' } },
    },
  };
}

export function webhookSection(): Record<string, Schema> {
  return {
    entrySignalCreated: webhook('entry_signal.created',
      'A new entry signal matched one of your Entry Signal alerts (Pro and above).', entrySignal),
    signalOutcome: webhook('signal.outcome',
      'Four hours (market time) after a delivered entry signal, from 5-minute bars.', outcome),
    alertTriggered: webhook('alert.triggered',
      'An alert fired; data carries the alert\'s own fields plus these.', alertTriggered),
    test: webhook('test', 'Sent by `orderflow webhooks test ID`.', testData),
  };
}

/** Schema of one event type's envelope, for validating deliveries in tests. */
export function webhookEnvelopeSchema(type: 'entry_signal.created' | 'signal.outcome' |
  'alert.triggered' | 'test'): Schema {
  const data = { 'entry_signal.created': entrySignal, 'signal.outcome': outcome,
    'alert.triggered': alertTriggered, test: testData }[type];
  return envelope(type, data);
}

