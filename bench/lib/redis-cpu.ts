// redis-server's own CPU time (it takes its CPU from the same cores as the processes measured).
import type { SharedState } from '../../scale-out/shared-state.js';

/** redis-server's CPU time so far (user + system, µs), from INFO. */
export async function redisCpuUs(shared: SharedState): Promise<number> {
  const info = await shared.link.command.info('cpu');
  const seconds = (name: string) =>
    Number(new RegExp(`^${name}:([\\d.]+)`, 'm').exec(info)?.[1]);
  return (seconds('used_cpu_user') + seconds('used_cpu_sys')) * 1e6;
}
