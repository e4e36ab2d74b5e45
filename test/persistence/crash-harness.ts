// Crash harness: runs a child that writes to the store, kill -9s it at random points and lets
// the caller check after each kill that everything the child acknowledged survived.
//
// Child protocol, one line each on stdout:
//   READY                 the store is open
//   BEGIN <json record>   an operation starts (it may or may not survive a kill)
//   ACK <json record>     the operation is durable; it must survive any later kill
// Every record has a `kind` ('key.create', 'usage', ... ; later issues add their own).
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { seededRandom } from '../helpers/seeded-random.js';

export interface CrashRecord {
  readonly kind: string;
  readonly [field: string]: unknown;
}

/** One line of the protocol, in the order the child printed it across all cycles. */
export interface CrashEvent {
  readonly phase: 'begin' | 'ack';
  readonly cycle: number;
  readonly record: CrashRecord;
}

export interface CrashHistory {
  readonly events: CrashEvent[];
  /** Cycles that ended in a kill (not in a clean exit of the child). */
  kills: number;
}

export interface CrashCycleOptions {
  /** argv of the child for a cycle; the first element is the executable. */
  readonly command: (cycle: number) => readonly string[];
  readonly cycles: number;
  /** Each cycle kills after a random 0..acksBeforeKillMax acknowledgements... */
  readonly acksBeforeKillMax: number;
  /** ...plus a random 0..killDelayMsMax so the kill lands inside an operation. */
  readonly killDelayMsMax: number;
  readonly seed: number;
  /** Called after each kill, with the child gone: throw to fail. */
  readonly verify: (history: CrashHistory, cycle: number) => Promise<void>;
  /** A child that says nothing for this long is killed and the run fails. */
  readonly silenceMsMax?: number;
  readonly env?: NodeJS.ProcessEnv;
}

export { seededRandom };

function parseLine(line: string, cycle: number): CrashEvent | 'ready' | null {
  if (line === 'READY') return 'ready';
  const match = /^(BEGIN|ACK) (.+)$/.exec(line);
  if (!match) return null;
  const record = JSON.parse(match[2]) as CrashRecord;
  if (typeof record.kind !== 'string') throw new Error(`record without kind: ${line}`);
  return { phase: match[1] === 'BEGIN' ? 'begin' : 'ack', cycle, record };
}

/** Runs one child until its kill point; resolves once it has exited. */
function runCycle(
  options: CrashCycleOptions, cycle: number, random: () => number, history: CrashHistory,
): Promise<void> {
  const acksBeforeKill = Math.floor(random() * (options.acksBeforeKillMax + 1));
  const killDelayMs = Math.floor(random() * (options.killDelayMsMax + 1));
  const [file, ...args] = options.command(cycle);
  const child = spawn(file, args, { stdio: ['ignore', 'pipe', 'pipe'], env: options.env });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr = (stderr + chunk).slice(-4_000)));
  let ready = false;
  let acks = 0;
  let killed = false;
  let killScheduled = false;
  let silence: NodeJS.Timeout | undefined;
  const kill = () => {
    if (killed) return;
    killed = true;
    child.kill('SIGKILL');
  };
  const armSilence = () => {
    clearTimeout(silence);
    silence = setTimeout(kill, options.silenceMsMax ?? 20_000);
  };
  armSilence();
  createInterface({ input: child.stdout }).on('line', (line) => {
    armSilence();
    // Lines still arrive after the kill: what the child wrote before it died is in the pipe, and
    // a BEGIN among them widens what the store may hold (its write may have committed).
    const parsed = parseLine(line, cycle);
    if (parsed === 'ready') ready = true;
    else if (parsed !== null) history.events.push(parsed);
    if (parsed !== null && parsed !== 'ready' && parsed.phase === 'ack') acks += 1;
    if (ready && acks >= acksBeforeKill && !killScheduled && !killed) {
      killScheduled = true;
      setTimeout(kill, killDelayMs);
    }
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      clearTimeout(silence);
      if (signal === 'SIGKILL' && killed && ready) history.kills += 1;
      else if (!ready || (code !== 0 && !killed)) {
        reject(new Error(`crash child cycle ${cycle} ended (code ${code}, signal ${signal}) ` +
          `before it was killed; stderr: ${stderr}`));
        return;
      }
      resolve();
    });
  });
}

/** Runs the cycles in turn; the history accumulates over all of them. */
export async function runCrashCycles(options: CrashCycleOptions): Promise<CrashHistory> {
  const random = seededRandom(options.seed);
  const history: CrashHistory = { events: [], kills: 0 };
  for (let cycle = 0; cycle < options.cycles; cycle++) {
    await runCycle(options, cycle, random, history);
    await options.verify(history, cycle);
  }
  return history;
}

/** Acknowledged records of a kind, oldest first. */
export function ackedOf(history: CrashHistory, kind: string): CrashRecord[] {
  return history.events.filter((e) => e.phase === 'ack' && e.record.kind === kind)
    .map((e) => e.record);
}
