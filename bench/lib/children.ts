// Every child process a bench starts, so none outlives the bench: killed at exit and on signals.
import type { ChildProcess } from 'node:child_process';

/** Bounded by the benches themselves: each starts at most a handful of children at once. */
const live = new Set<ChildProcess>();
const childrenMax = 16;
let hooked = false;

function killAll(): void {
  for (const child of live) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
  live.clear();
}

function hook(): void {
  if (hooked) return;
  hooked = true;
  process.once('exit', killAll);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      killAll();
      process.exit(130);
    });
  }
}

/** Tracks a child until it exits; refuses a leak past childrenMax (a programmer error). */
export function track(child: ChildProcess): ChildProcess {
  hook();
  if (live.size >= childrenMax) {
    child.kill('SIGKILL');
    throw new Error(`bench children must stay at most ${childrenMax} (was ${live.size + 1})`);
  }
  live.add(child);
  child.once('exit', () => live.delete(child));
  return child;
}

/** Asks a child to stop (SIGTERM), then kills it if it has not exited within graceMs. */
export async function stopChild(child: ChildProcess, graceMs = 5_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  try {
    await exited;
  } finally {
    clearTimeout(timer);
  }
}

/** Keeps the last `bytesMax` characters of a stream: enough for an error message. */
export function tail(bytesMax: number): { add(chunk: Buffer): void; text(): string } {
  let text = '';
  return {
    add(chunk) {
      text += chunk.toString();
      if (text.length > bytesMax) text = text.slice(text.length - bytesMax);
    },
    text: () => text,
  };
}
