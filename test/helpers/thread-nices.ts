// Each thread's nice value and scheduling policy of a process, from /proc (Linux keeps them per
// thread): what the CPU priority tests read (scale-out/cpu-priority.ts).
import { readdirSync, readFileSync } from 'node:fs';

/** Field `field` (1-based, as proc(5) numbers them) of thread `tid`'s /proc stat line. */
function statField(pid: number, tid: number | string, field: number): number {
  const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces) start at state, field 3.
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[field - 3]);
}

/** The field of each thread of the process. */
function threadStatField(pid: number, field: number): number[] {
  return readdirSync(`/proc/${pid}/task`).map((tid) => statField(pid, tid, field));
}

export const threadNices = (pid: number): number[] => threadStatField(pid, 19);

/** The nice value of one thread of the process. */
export const threadNice = (pid: number, tid: number): number => statField(pid, tid, 19);

/** Each thread's scheduling policy (0 SCHED_OTHER, 2 SCHED_RR, ...). */
export const threadPolicies = (pid: number): number[] => threadStatField(pid, 41);
