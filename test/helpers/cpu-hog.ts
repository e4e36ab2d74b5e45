// Busy loops in processes of their own, one per core: a machine whose every core is taken by
// other work, as on a shared box. Stopped by the test; killed at exit if the test dies first.
import { spawn, type ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';

export interface CpuHog {
  readonly processes: number;
  stop(): Promise<void>;
}

const running = new Set<ChildProcess>();
let exitHooked = false;

export function startCpuHog(processes = availableParallelism()): CpuHog {
  if (!exitHooked) {
    exitHooked = true;
    process.once('exit', () => { for (const child of running) child.kill('SIGKILL'); });
  }
  const children = Array.from({ length: processes }, () => {
    const child = spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
    running.add(child);
    return child;
  });
  return {
    processes,
    async stop() {
      await Promise.all(children.map((child) => new Promise<void>((resolve) => {
        running.delete(child);
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      })));
    },
  };
}
