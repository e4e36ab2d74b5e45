// Alert kinds: each fires exactly when it should, not before, once per crossing; cooldowns
// in market time; option parsing; Entry Signal matching; webhook URL checks.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { KeyRecord, Plan } from '../../core/messages.js';
import {
  buildAlertPayload, createAlertEngine, matchEntrySignalAlerts, parseAlertSpec,
  validateWebhookUrl, type AlertFire, type AlertRecord, type AlertInput, type ScreenerRow,
} from '../../actors/signals/alerts.js';
import type { EntrySignal } from '../../actors/signals/types.js';
import { bars, T0, type BarInput } from './bars.js';

let serial = 0;
function alert(kind: string, input: AlertInput, keyPrefix = 'ofk_00000001'): AlertRecord {
  const parsed = parseAlertSpec(kind, input);
  if (!parsed.ok) throw new Error(parsed.error);
  serial += 1;
  return { id: `alr_${serial.toString(16).padStart(16, '0')}`, keyPrefix,
    webhookUrl: 'https://hooks.example.com/a', cooldownMs: parsed.value.cooldownMs,
    createdAtMs: 0, ...parsed.value.spec } as AlertRecord;
}

/** Feeds prices one minute apart and returns the indexes that fired. */
function pricesFire(a: AlertRecord, prices: number[], stepMs = 60_000): number[] {
  const engine = createAlertEngine([a]);
  return prices.flatMap((p, i) => engine.onPrice('BTC', p, T0 + i * stepMs).length ? [i] : []);
}

test('price above: fires on the crossing only, once, re-arms below the level', () => {
  const a = alert('price', { symbol: 'BTC', level: '100', direction: 'above' });
  assert.equal(pricesFire(a, [99, 99.5, 100, 101, 102, 99, 100.5]), [2, 6]);
  assert.equal(pricesFire(a, [101, 102, 103]), [], 'already above when first seen');
  const below = alert('price', { symbol: 'BTC', level: '100', direction: 'below' });
  assert.equal(pricesFire(below, [101, 100, 99, 101, 99]), [1, 4]);
});

test('price: a cooldown in market time swallows a re-cross', () => {
  const a = alert('price', { symbol: 'BTC', level: '100', direction: 'above', cooldown: '5m' });
  assert.equal(pricesFire(a, [99, 101, 99, 101, 99, 99, 99, 99, 101]), [1, 8]);
  const engine = createAlertEngine([a]);
  assert.equal(engine.onPrice('ETH', 200, T0), [], 'other symbols are not watched');
});

test('drawing: crossing the extended line through two points', () => {
  // Line from 100 at T0 to 110 at T0+10 min: 1 per minute, extended past the second point.
  const a = alert('drawing', { symbol: 'BTC', point1: `${new Date(T0).toISOString()},100`,
    point2: `${new Date(T0 + 600_000).toISOString()},110`, direction: 'above' });
  // Line at minutes 0..14: 100..114. Prices stay below, then cross at minute 12 (line 112).
  const prices = [95, 96, 97, 98, 99, 100, 101, 102, 103, 104, 105, 106, 113, 115, 110];
  assert.equal(pricesFire(a, prices), [12]);
  const any = alert('drawing', { symbol: 'BTC', point1: `${new Date(T0).toISOString()},100`,
    point2: `${new Date(T0 + 600_000).toISOString()},110` });
  assert.equal(pricesFire(any, prices), [12, 14]);
  const engine = createAlertEngine([a]);
  engine.onPrice('BTC', 95, T0);
  const [fire] = engine.onPrice('BTC', 120, T0 + 15 * 60_000);
  assert.is(buildAlertPayload(fire, 10.95).line_price, 115);
});

test('sweep high: trades through the level then a bar closes back; acceptance re-arms', () => {
  const a = alert('sweep', { symbol: 'BTC', level: '100', side: 'high' });
  const engine = createAlertEngine([a]);
  const seq = bars('BTC', [
    { o: 98, h: 99, l: 97, c: 98 },
    { o: 98, h: 99.9, l: 97, c: 99 },
    { o: 99, h: 100.5, l: 98, c: 99.5 },
    { o: 99.5, h: 100.5, l: 99, c: 99.8 },
    { o: 99.8, h: 101, l: 99, c: 100.6 },
    { o: 100.6, h: 101, l: 99, c: 99.5 },
    { o: 99.5, h: 100.2, l: 99, c: 99.6 },
  ]);
  const fired = seq.flatMap((bar, i) => engine.onBar(bar).length ? [i] : []);
  // 2: swept and closed back. 3: pierced again from inside, closed back. 4: closed beyond
  // (accepted, no alert). 5: closes back inside, re-arming only. 6: a new sweep.
  assert.equal(fired, [2, 3, 6]);
  const byTrade = createAlertEngine([a]);
  byTrade.onPrice('BTC', 99, T0);
  byTrade.onPrice('BTC', 100.1, T0 + 1_000);
  const [fire] = byTrade.onBar(bars('BTC', [{ o: 99, h: 99.9, l: 98, c: 99 }])[0]);
  assert.ok(fire, 'a trade through the level arms the close-back');
  assert.is(fire.tsMs, T0 + 300_000, 'fired at the bar close, market time');
  const hourly = createAlertEngine([a]);
  assert.equal(hourly.onBar(bars('BTC', [{ o: 99, h: 101, l: 98, c: 99 }], T0, '1h')[0]), []);
});

test('delta_flip: fires when the windowed CVD slope changes sign, once per flip', () => {
  const a = alert('delta_flip', { symbol: 'BTC', window: '2', direction: 'any' });
  const deltas = [10, 10, 10, -5, -30, -10, -10, 40, 50, 0, 0];
  const seq = bars('BTC', deltas.map((d): BarInput => ({ o: 1, h: 1, l: 1, c: 1,
    buy: Math.max(0, d), sell: Math.max(0, -d) })));
  const engine = createAlertEngine([a]);
  const fired = seq.flatMap((bar, i) => engine.onBar(bar).length ? [i] : []);
  // Slopes over 2 bars: -,20,20,5,-35,-40,-20,30,90,50,0 -> flips at 4 (down) and 7 (up).
  assert.equal(fired, [4, 7]);
  const upOnly = createAlertEngine([alert('delta_flip', { symbol: 'BTC', window: '2',
    direction: 'up' })]);
  assert.equal(seq.flatMap((bar, i) => upOnly.onBar(bar).length ? [i] : []), [7]);
  assert.equal(upOnly.onBar(seq[7]), [], 'a replayed bar changes nothing');
});

const row = (symbol: string, fundingAnnualized: number, change24h = 0): ScreenerRow => ({
  symbol, price: 10, change24h, volume24h: 1e6, openInterest: 1e6, fundingRate: 0,
  fundingAnnualized,
});

test('screener: fires when the condition starts to hold, per symbol, with its cooldown', () => {
  const a = alert('screener', { symbol: 'all', field: 'fundingAnnualized', above: '50' });
  const engine = createAlertEngine([a]);
  const at = (minutes: number) => T0 + minutes * 60_000;
  assert.is(engine.onScreenerRow(row('BTC', 40), at(0)).length, 0);
  assert.is(engine.onScreenerRow(row('BTC', 60), at(1)).length, 1);
  assert.is(engine.onScreenerRow(row('BTC', 70), at(2)).length, 0, 'still holding: once');
  assert.is(engine.onScreenerRow(row('ETH', 55), at(2)).length, 1, 'each symbol on its own');
  engine.onScreenerRow(row('BTC', 10), at(3));
  assert.is(engine.onScreenerRow(row('BTC', 60), at(4)).length, 0, 'within the 1h cooldown');
  engine.onScreenerRow(row('BTC', 10), at(70));
  const [fire] = engine.onScreenerRow(row('BTC', 61), at(71));
  assert.ok(fire, 'fires again after the cooldown and a re-arm');
  const payload = buildAlertPayload(fire as AlertFire, 61);
  assert.is(payload.alert_kind, 'screener');
  assert.is(payload.symbol, 'BTC');
  assert.is(payload.field, 'fundingAnnualized');
  assert.is(payload.condition, 'above');
  assert.is(payload.value, 50);
  assert.is(payload.observed_value, 61);
  assert.is(payload.funding_annualized_pct, 61);
  assert.is(payload.time, new Date(at(71)).toISOString());
  const below = createAlertEngine([alert('screener', { symbol: 'SOL', field: 'change24h',
    below: '-5' })]);
  assert.is(below.onScreenerRow(row('SOL', 0, -6), at(0)).length, 1);
  assert.is(below.onScreenerRow(row('BTC', 0, -6), at(0)).length, 0);
});

test('setAlerts keeps the state of alerts that stay and drops removed ones', () => {
  const a = alert('price', { symbol: 'BTC', level: '100', direction: 'above' });
  const b = alert('price', { symbol: 'BTC', level: '200', direction: 'above' });
  const engine = createAlertEngine([a]);
  engine.onPrice('BTC', 99, T0);
  engine.setAlerts([a, b]);
  const fires = engine.onPrice('BTC', 100, T0 + 1);
  assert.equal(fires.map((f) => f.alert.id), [a.id]);
  engine.setAlerts([]);
  assert.equal(engine.onPrice('BTC', 300, T0 + 2), []);
});

test('parse errors name the field, what was expected and what was found', () => {
  const cases: [string, AlertInput, RegExp][] = [
    ['nope', {}, /kind must be one of entry_signal, price/],
    ['price', { symbol: 'BTC', level: '-1', direction: 'above' },
      /level must be a positive number \(was "-1"\)/],
    ['price', { level: '1', direction: 'above' }, /symbol must be .* \(was missing\)/],
    ['price', { symbol: 'BTC', level: '1', direction: 'up' },
      /direction must be one of above, below/],
    ['screener', { symbol: 'all', field: 'funding', above: '1' }, /field must be one of/],
    ['screener', { symbol: 'all', field: 'price', above: '1', below: '2' }, /exactly one/],
    ['sweep', { symbol: 'BTC', level: '1', side: 'mid' }, /side must be one of high, low/],
    ['delta_flip', { symbol: 'BTC', window: '0' }, /window must be an integer/],
    ['drawing', { symbol: 'BTC', point1: 'x,1', point2: '2026-01-01T00:00:00Z,2' }, /point1/],
    ['entry_signal', { timeframes: '5m,4h' }, /timeframes must be/],
    ['entry_signal', { minGrade: 'E' }, /min-grade must be one of A\+, A, B, C, D \(was "E"\)/],
    ['price', { symbol: 'BTC', level: '1', direction: 'above', cooldown: 'soon' }, /cooldown/],
  ];
  for (const [kind, input, pattern] of cases) {
    const parsed = parseAlertSpec(kind, input);
    assert.is(parsed.ok, false, `${kind} ${JSON.stringify(input)}`);
    if (!parsed.ok) assert.match(parsed.error, pattern);
  }
  const ok = parseAlertSpec('entry_signal', {});
  assert.ok(ok.ok);
  if (ok.ok) {
    assert.equal(ok.value.spec, { kind: 'entry_signal', symbols: 'all',
      timeframes: ['5m', '15m', '1h'], minGrade: 'B' });
  }
});

function entrySignal(symbol: string, timeframe: '5m' | '15m' | '1h', grade: EntrySignal['grade']):
  EntrySignal {
  return { signal_id: `${symbol}-${timeframe}-0-long`, symbol, timeframe, side: 'long', grade,
    score: 0, bar_time: new Date(0).toISOString(), regime: 'unknown', confirmed: false,
    flow_source: 'none', logics: { liquidity_grab: true, flow_rejection: false,
      absorption: false, cvd_divergence: false, structure_shift: false,
      level_confluence: false },
    plan: { entry: 10, stop: 9, t1: 11, t2: 12, r_t1: 1, r_t2: 2 }, price_at_signal: 10 };
}

test('Entry Signal alerts match on pairs, timeframe, minimum grade and a Pro-or-above key', () => {
  const all = alert('entry_signal', { minGrade: 'B' });
  const list = alert('entry_signal', { symbols: 'ETH,SOL', timeframes: '1h', minGrade: 'C' },
    'ofk_00000002');
  const weak = alert('entry_signal', { minGrade: 'D' }, 'ofk_00000003');
  const price = alert('price', { symbol: 'ETH', level: '1', direction: 'above' });
  const alerts = [all, list, weak, price];
  const ids = (s: EntrySignal) => matchEntrySignalAlerts(alerts, s).map((a) => a.id);
  assert.equal(ids(entrySignal('ETH', '1h', 'A+')), [all.id, list.id, weak.id]);
  assert.equal(ids(entrySignal('ETH', '1h', 'C')), [list.id, weak.id]);
  assert.equal(ids(entrySignal('ETH', '5m', 'C')), [weak.id]);
  assert.equal(ids(entrySignal('BTC', '15m', 'B')), [all.id, weak.id]);
  const plans: Record<string, Plan> = { ofk_00000001: 'Pro', ofk_00000002: 'Trader',
    ofk_00000003: 'Whale' };
  const keys = { byDigest: () => undefined, byPrefix: (prefix: string): KeyRecord | undefined =>
    plans[prefix] ? { prefix, digest: '', plan: plans[prefix], label: null,
      subscriptionStartMs: null, createdAtMs: 0,
      revokedAtMs: prefix === 'ofk_00000003' ? 5 : null } : undefined };
  assert.equal(matchEntrySignalAlerts(alerts, entrySignal('ETH', '1h', 'A'), keys)
    .map((a) => a.id), [all.id], 'Trader is below Pro; a revoked key gets nothing');
});

test('webhook URLs: https on a public host unless private ones are allowed', () => {
  assert.ok(validateWebhookUrl('https://hooks.example.com/x', false).ok);
  const cases: [string, RegExp][] = [
    ['http://hooks.example.com/x', /must use https \(was http/],
    ['https://127.0.0.1/x', /private, loopback or link-local address \(was 127\.0\.0\.1/],
    ['https://192.168.1.2/x', /private/], ['https://169.254.1.1/', /private/],
    ['https://[::1]/x', /private/], ['https://localhost:8443/', /private/],
    ['not a url', /absolute https URL/], ['https://u:p@example.com/', /credentials/],
  ];
  for (const [url, pattern] of cases) {
    const checked = validateWebhookUrl(url, false);
    assert.is(checked.ok, false, url);
    if (!checked.ok) assert.match(checked.error, pattern);
  }
  assert.ok(validateWebhookUrl('http://127.0.0.1:9999/hook', true).ok);
});

test.run();
