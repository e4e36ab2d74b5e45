// The `orderflow` command run as an operator runs it: another process, and this one's event loop
// free meanwhile. A test whose own process hosts the service must not wait for the command
// synchronously: the store's writes take lmdb's write lock in a worker thread and finish on the
// main thread, so a spawnSync there can hold that lock's owner while the command waits for it
// (seen: `keys list` hung for minutes on Node 22 in e2e/service while history was being written).
import { execFile } from 'node:child_process';
import { binPath } from './service-process.js';

/** Bounds a hung command so the test fails with its output instead of hanging the suite. */
const commandTimeoutMs = 60_000;

/** Runs `orderflow ...args`: its stdout, or a rejection with its stderr on a non-zero exit. */
export function runCli(args: readonly string[], env: Record<string, string> = {}):
  Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [binPath, ...args],
      { encoding: 'utf8', env: { ...process.env, ...env }, timeout: commandTimeoutMs },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`orderflow ${args.join(' ')}: ${stderr || error.message}`));
        else resolve(stdout);
      });
  });
}
