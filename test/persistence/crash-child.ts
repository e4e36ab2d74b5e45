// Crash-test child: opens the store and keeps creating, revoking and re-planning keys and
// spending quota, printing BEGIN before and ACK after each durable operation (crash-harness.ts).
// Usage: node --import tsx crash-child.ts DATA_DIR SEED CLOCK_START_MS
import { ManualClock } from '../../core/clock.js';
import { PLANS } from '../../core/messages.js';
import { romeDayKey } from '../../core/rome-time.js';
import { openStore, type Store } from '../../persistence/store.js';
import { seededRandom } from './crash-harness.js';

const operationsMax = 5_000;

const say = (phase: 'BEGIN' | 'ACK', record: object) =>
  process.stdout.write(`${phase} ${JSON.stringify(record)}\n`);

class Writer {
  constructor(
    private readonly store: Store,
    private readonly random: () => number,
    private readonly dayKey: string,
  ) {}

  private pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.random() * items.length)];
  }

  async step(): Promise<void> {
    const draw = this.random();
    if (draw < 0.3) await this.createKey();
    else if (draw < 0.45) await this.changeKey(true);
    else if (draw < 0.7) await this.changeKey(false);
    else await this.spendQuota();
  }

  private async createKey(): Promise<void> {
    const plan = this.pick(PLANS);
    say('BEGIN', { kind: 'key.create', plan });
    const { record } = await this.store.keys.create({ plan, label: 'crash test' });
    say('ACK', { kind: 'key.create', prefix: record.prefix, digest: record.digest, plan });
  }

  private async changeKey(revoke: boolean): Promise<void> {
    const live = this.store.keys.list().filter((record) => record.revokedAtMs === null);
    if (live.length === 0) return this.createKey();
    const { prefix } = this.pick(live);
    const plan = this.pick(PLANS);
    const record = revoke ? { kind: 'key.revoke', prefix } : { kind: 'key.plan', prefix, plan };
    say('BEGIN', record);
    const change = revoke
      ? await this.store.keys.revoke(prefix) : await this.store.keys.setPlan(prefix, plan);
    if (!change.ok) throw change.error;
    say('ACK', record);
  }

  /** Spends quota, then acknowledges once the write-behind pass covering it has committed. */
  private async spendQuota(): Promise<void> {
    const keys = this.store.keys.list();
    const identity = keys.length > 0 && this.random() < 0.5
      ? `key:${this.pick(keys).prefix}` : `ip:10.0.0.${Math.floor(this.random() * 8)}`;
    const times = 1 + Math.floor(this.random() * 50);
    let count = 0;
    for (let i = 0; i < times; i++) count = this.store.usage.increment(identity, this.dayKey);
    say('BEGIN', { kind: 'usage', identity, dayKey: this.dayKey, count });
    await this.store.usage.whenFlushed();
    say('ACK', { kind: 'usage', identity, dayKey: this.dayKey, count });
  }
}

async function main(args: readonly string[]): Promise<void> {
  const [dataDir, seedText, clockText] = args;
  const clock = new ManualClock(Number(clockText));
  // A short write-behind cadence so each cycle acknowledges many counts; same code path.
  const store = await openStore({ dataDir, clock, usageFlushMs: 20 });
  process.stdout.write('READY\n');
  const writer = new Writer(store, seededRandom(Number(seedText)), romeDayKey(clock.nowMs()));
  for (let operation = 0; operation < operationsMax; operation++) await writer.step();
  await store.close();
}

// Runs only as a process of its own, never when a test runner loads every file of the folder.
if (process.argv[1]?.endsWith('crash-child.ts')) void main(process.argv.slice(2));
