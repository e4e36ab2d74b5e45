// The front of the propagation bench as a process of its own, as a front is in a deployment
// (so ingest's producer and publisher never share its thread): a SnapshotSubscriber on the
// front's shared state, noting when each view lands in its snapshot store (the moment the front
// serves it), on the machine's monotonic clock, which every process reads alike.
//
// Parent -> child (IPC): 'collect' (send what landed since the last collect), 'stop'.
// Child -> parent: { ready: true } once loaded, then one Landed per collect.
import { systemClock } from '../../core/clock.js';
import { silentLogger } from '../../core/logger.js';
import { SnapshotStore, type ViewMeta } from '../../http/snapshots.js';
import { openSharedState } from '../../scale-out/shared-state.js';
import { SnapshotSubscriber } from '../../scale-out/subscriber.js';
import { watchGcPauses, type GcPauses } from './gc-pauses.js';

export interface Landed {
  /** [view name, its updatedAtMs (the bench's key of one put), monotonic ms when it landed]. */
  readonly views: [string, number, number][];
  /** The front's CPU per applied view (µs) since the last collect. */
  readonly cpuPerViewUs: number;
  /** The front's GC pauses since the last collect. */
  readonly gc: GcPauses;
}

/** The machine's monotonic clock in ms (CLOCK_MONOTONIC: one clock for every process). */
export function monotonicMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

/** Notes each put in three flat arrays (no tuple per view: the bench's own garbage would add to
 *  the front's GC pauses it reports). */
class NotingStore extends SnapshotStore {
  names: string[] = [];
  updatedAtMs: number[] = [];
  atMs: number[] = [];

  override put(name: string, body: Uint8Array | Buffer, meta: ViewMeta): void {
    super.put(name, body, meta);
    this.names.push(name);
    this.updatedAtMs.push(meta.updatedAtMs);
    this.atMs.push(monotonicMs());
  }

  /** What landed since the last take. */
  take(): [string, number, number][] {
    const views = this.names.map((name, i): [string, number, number] =>
      [name, this.updatedAtMs[i]!, this.atMs[i]!]);
    this.names = [];
    this.updatedAtMs = [];
    this.atMs = [];
    return views;
  }
}

async function main(url: string): Promise<void> {
  const shared = await openSharedState(url, systemClock, silentLogger);
  const store = new NotingStore();
  const subscriber = new SnapshotSubscriber(shared.link, store, systemClock, silentLogger);
  subscriber.measureApplyCpu = true;
  subscriber.start();
  while (!subscriber.loaded()) await new Promise((resolve) => setTimeout(resolve, 20));
  let cpuUs = 0;
  let views = 0;
  const gc = watchGcPauses();
  process.on('message', (message: string) => {
    if (message === 'collect') {
      const applied = Math.max(1, subscriber.viewsApplied - views);
      const landed: Landed = { views: store.take(),
        cpuPerViewUs: (subscriber.applyCpuUs - cpuUs) / applied, gc: gc.take() };
      cpuUs = subscriber.applyCpuUs;
      views = subscriber.viewsApplied;
      process.send!(landed);
    } else if (message === 'stop') {
      void shared.close().then(() => process.exit(0));
    }
  });
  process.send!({ ready: true });
}

if (process.argv[1]?.endsWith('propagation-front.ts')) {
  main(process.argv[2]!).catch((error: Error) => {
    process.stderr.write(`${error.stack}\n`);
    process.exit(1);
  });
}
