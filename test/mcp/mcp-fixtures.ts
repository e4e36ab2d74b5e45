// Test doubles for the MCP endpoints: an AccessControl with plans, a burst window and a daily
// counter, and McpData with fixed views shaped like the REST bodies.
import { PLANS, type KeyRecord, type Plan } from '../../core/messages.js';
import type { Clock } from '../../core/clock.js';
import type {
  AccessControl, BurstScope, Credentials, Endpoint, Identity, Outcome, Problem, UsageReport,
} from '../../http/access-types.js';
import type { McpData } from '../../http/mcp/types.js';

const minimumPlan: Record<Endpoint, Plan> = {
  screener: 'Free', pair: 'Free', usage: 'Free', signals: 'Trader', 'smart-money': 'Pro',
  'deep-view': 'Whale', 'funding-arb': 'Whale', cvd: 'Whale', 'liquidation-map': 'Whale',
  wallets: 'Whale', export: 'Whale', history: 'Pro', footprint: 'Whale',
  'volume-profile': 'Whale',
};

const ok: Outcome<void> = { ok: true, value: undefined };
const fail = (problem: Problem): { ok: false; problem: Problem } => ({ ok: false, problem });

export function testKey(n: number): string {
  return `ofk_${n.toString(16).padStart(8, '0')}${'0'.repeat(24)}`;
}

export class FakeAccess implements AccessControl {
  readonly keys = new Map<string, KeyRecord>();
  readonly daily = new Map<string, number>();
  readonly burst = new Map<string, number[]>();
  burstLimit = 1_000;
  dailyLimit = 1_000;

  constructor(private readonly clock: Clock) {}

  addKey(key: string, plan: Plan): string {
    const prefix = key.slice(0, 12);
    this.keys.set(key, { prefix, digest: key, plan, label: null, subscriptionStartMs: null,
      createdAtMs: 0, revokedAtMs: null });
    return prefix;
  }

  identify(credentials: Credentials, ip: string): Outcome<Identity> {
    const bearer = credentials.authorization?.replace(/^Bearer\s+/i, '');
    const sent = bearer ?? credentials.xApiKey ?? credentials.queryKey;
    if (sent === undefined) return { ok: true, value: { kind: 'ip', ip } };
    const key = this.keys.get(sent);
    if (!key) {
      return fail({ status: 401, code: 'invalid_key', title: 'Unauthorized',
        detail: 'the API key is not valid' });
    }
    return { ok: true, value: { kind: 'key', ip, key, plan: key.plan } };
  }

  checkBurst(identity: Identity, scope: BurstScope): Outcome<void> {
    const id = `${scope}:${this.who(identity)}`;
    const nowMs = this.clock.nowMs();
    const times = (this.burst.get(id) ?? []).filter((t) => t > nowMs - 60_000);
    if (times.length >= this.burstLimit) {
      const retryAfterSeconds = Math.ceil((times[0] + 60_000 - nowMs) / 1000);
      return fail({ status: 429, code: 'rate_limited', title: 'Too Many Requests',
        detail: `burst limit of ${this.burstLimit} per minute reached`,
        extensions: { scope, limit: this.burstLimit, windowSeconds: 60, retryAfterSeconds },
        headers: [['Retry-After', String(retryAfterSeconds)]] });
    }
    times.push(nowMs);
    this.burst.set(id, times);
    return ok;
  }

  checkPlan(identity: Identity, endpoint: Endpoint): Outcome<void> {
    const required = minimumPlan[endpoint];
    const plan = identity.kind === 'key' ? identity.plan : 'Free';
    if (PLANS.indexOf(plan) >= PLANS.indexOf(required)) return ok;
    return fail({ status: 403, code: 'plan_required', title: 'Plan required',
      detail: `${endpoint} needs a higher plan`, extensions: { requiredPlan: required, plan } });
  }

  consumeDaily(identity: Identity): Outcome<void> {
    const id = this.who(identity);
    const used = this.daily.get(id) ?? 0;
    if (used >= this.dailyLimit) {
      return fail({ status: 429, code: 'quota_exceeded', title: 'Daily quota exceeded',
        detail: `daily quota of ${this.dailyLimit} requests used up`,
        extensions: { limit: this.dailyLimit, used, resetsAt: '2026-10-02T22:00:00.000Z' } });
    }
    this.daily.set(id, used + 1);
    return ok;
  }

  usage(identity: Identity): UsageReport {
    const used = this.daily.get(this.who(identity)) ?? 0;
    return { plan: identity.kind === 'key' ? identity.plan : null, limit: this.dailyLimit, used,
      remaining: Math.max(0, this.dailyLimit - used), resetsAt: '2026-10-02T22:00:00.000Z',
      timeZone: 'Europe/Rome', grandfathered: false, grandfatheredUntil: null };
  }

  rateLimitHeaders(): readonly (readonly [string, string])[] {
    return [['RateLimit-Policy', `"burst";q=${this.burstLimit};w=60`]];
  }

  usedBy(prefix: string): number {
    return this.daily.get(`key:${prefix}`) ?? 0;
  }

  private who(identity: Identity): string {
    return identity.kind === 'key' ? `key:${identity.key.prefix}` : `ip:${identity.ip}`;
  }
}

const pair = (symbol: string, price: number, change24h: number, volume24h: number,
  openInterest: number, fundingRate: number) => ({
  symbol, price, change24h, volume24h, openInterest, fundingRate,
  fundingAnnualized: fundingRate * 24 * 365 * 100,
});

export const screenerView = {
  pairs: [
    pair('BTC', 97123.456789, 2.345678, 1_234_567_890.123, 2_345_678_901.987, 0.0000125),
    pair('ETH', 3456.789123, -4.56789, 789_012_345.678, 987_654_321.123, -0.0000321),
    pair('SOL', 187.654321, 8.765432, 456_789_012.345, 234_567_890.12, 0.0000612),
    pair('kPEPE', 0.0123456789, -12.345678, 12_345_678.9, 3_456_789.01, -0.0001234),
    pair('xyz:TSLA', 412.3456789, 1.2345, 50_000.5, 80_000.25, 0.00001),
    pair('MATIC', 0.5, 0, 0, 0, 0),
  ],
  count: 6,
  updatedAt: '2026-10-01T12:00:00.000Z',
  cadenceMs: 5_000,
};

const detail = (symbol: string) => {
  const row = screenerView.pairs.find((p) => p.symbol === symbol);
  return row && { ...row, vpin: 0.4567891, vpinLevel: 'elevated', signalScore: 42,
    signalDirection: 'LONG', regime: 'trending', updatedAt: screenerView.updatedAt,
    cadenceMs: 1_000 };
};

export const signalsView = {
  BTC: { score: 42, direction: 'LONG', vpin: 0.45678, cvd: 12_345_678.9, regime: 'trending' },
  ETH: { score: -77, direction: 'SHORT', vpin: 0.81234, cvd: -9_876_543.2, regime: 'volatile' },
  SOL: { score: 5, direction: 'NEUTRAL', vpin: 0.2, cvd: 1_000.5, regime: 'ranging' },
};

export const smartMoneyView = {
  wallets: 3,
  updatedAt: '2026-10-01T12:00:00.000Z',
  cadenceMs: 60_000,
  positions: [
    { address: '0xaaa', label: null, category: 'fund', accountValue: 5e7, symbol: 'BTC',
      side: 'long', notional: 12_345_678.9, leverage: 3, entryPrice: 95000.5, unrealizedPnl: 1e5 },
    { address: '0xbbb', label: 'desk', category: 'smart_money', accountValue: 2e7, symbol: 'ETH',
      side: 'short', notional: 4_000_000, leverage: 5, entryPrice: 3600.25, unrealizedPnl: 5e4 },
    { address: '0xccc', label: null, category: 'degen', accountValue: 1e5, symbol: 'BTC',
      side: 'short', notional: 250_000, leverage: 25, entryPrice: 98000, unrealizedPnl: -1e3 },
  ],
};

const deepView = (symbol: string) => ({
  symbol, price: 97123.456789, cvd: 12_345_678.9,
  cvdHistory: [1, 2, 3, 4, 5].map((i) => ({ t: `2026-10-01T11:5${i}:00.000Z`, cvd: i * 1000 })),
  obi: 0.123456, ofi: -0.5, vpin: 0.4567891, kyleLambda: 0.0000123, whales: [],
  smartMoney: { netNotional: 1e6 }, regime: 'trending', signalScore: 42,
});

export const fundingArbView = {
  updatedAt: '2026-10-01T12:00:00.000Z',
  cadenceMs: 60_000,
  pairs: [
    { symbol: 'BTC', home: 0.0000125, exchange_b: 0.0001, exchange_c: null, exchange_d: 0.00005,
      exchange_e: null, longVenue: 'home', shortVenue: 'exchange_d', spread: 0.0000000125,
      spreadAnnualized: 1.5, maxSpread: 0.0000000125 },
    { symbol: 'ETH', home: -0.0000321, exchange_b: 0.0001, exchange_c: 0.0002, exchange_d: null,
      exchange_e: 0.00003, longVenue: 'home', shortVenue: 'exchange_c', spread: 0.0000571,
      spreadAnnualized: 50.0196, maxSpread: 0.0000571 },
  ],
};

const tracked = new Set(['BTC', 'ETH', 'SOL']);

export const fakeData: McpData = {
  screener: () => screenerView,
  pair: (symbol) => detail(symbol),
  signals: () => signalsView,
  smartMoney: () => smartMoneyView,
  deepView: (symbol) => (tracked.has(symbol) ? deepView(symbol)
    : detail(symbol) ? 'not_tracked' : undefined),
  fundingArb: () => fundingArbView,
};
