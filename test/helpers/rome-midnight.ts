// Tests that spend a daily quota on a real `serve` process count on the wall clock's Rome day
// (docs/decisions.md, quotas): a Rome midnight halfway through would start a fresh count.
import { setTimeout as sleep } from 'node:timers/promises';
import { romeDay } from '../../core/rome-time.js';

/** When Rome midnight is less than `marginMs` away, waits until it has passed. */
export async function clearOfRomeMidnight(marginMs: number): Promise<void> {
  const leftMs = romeDay(Date.now()).endMs - Date.now();
  if (leftMs < marginMs) await sleep(leftMs + 1_000);
}
