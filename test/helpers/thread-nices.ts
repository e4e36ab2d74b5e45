// Each thread's nice value and scheduling policy of a process, from /proc (Linux keeps them per
// thread): what the CPU priority tests read (bin/scale-out/cpu-priority.ts).
import { readdirSync, readFileSync } from 'node:fs';

export function threadNices(pid: number): number[] {
  return readdirSync(`/proc/${pid}/task`).map((tid) => {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): state is 3, nice is 19.
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19 - 3]);
  });
}

/** Each thread's scheduling policy (0 SCHED_OTHER, 2 SCHED_RR, ...), from /proc/PID/task. */
export function threadPolicies(pid: number): number[] {
  return readdirSync(`/proc/${pid}/task`).map((tid) => {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    // Field 41 is the policy.
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[41 - 3]);
  });
}
