// Polling within the daily quota: data requests count against the session key's plan like any
// key's, so a page waits at least as long as the quota left allows until its reset (a 304 is
// free, but a view that changes every second answers 200). /api/v1/usage itself costs no quota.
import { data } from './api.js';

interface Usage { limit: number; used: number; remaining: number; resetsAt: string }

let held: { atMs: number; usage: Usage } | null = null;
const USAGE_MAX_AGE_MS = 60_000;

async function usage(): Promise<Usage | null> {
  if (held && Date.now() - held.atMs < USAGE_MAX_AGE_MS) return held.usage;
  try {
    held = { atMs: Date.now(), usage: await data<Usage>('/api/v1/usage') };
    return held.usage;
  } catch {
    return null;
  }
}

/** How long to wait before the next poll: at least minMs, more when the quota is short. */
export async function nextPollMs(minMs: number, pollers = 1): Promise<number> {
  const u = await usage();
  if (u === null) return minMs;
  const untilResetMs = Math.max(0, Date.parse(u.resetsAt) - Date.now());
  if (u.remaining <= 0) return Math.max(minMs, untilResetMs + 1_000);
  return Math.max(minMs, Math.ceil((untilResetMs * pollers) / u.remaining));
}

/** The last usage answer read, for a page to say why it refreshes slowly. */
export function lastUsage(): Usage | null {
  return held?.usage ?? null;
}
