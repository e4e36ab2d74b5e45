// What every admin command shares: its clock (ORDERFLOW_CLOCK_START lets tests travel) and the
// store of the data directory, opened for one command and closed after it.
import { shiftedClock, systemClock, type Clock } from '../core/clock.js';
import { openStore, type Store } from '../persistence/store.js';
import { dataDirOf, UsageError, type CommandIo } from './cli.js';

/** The admin clock: the wall clock, or ORDERFLOW_CLOCK_START when set. */
export function adminClock(io: CommandIo): Clock {
  const start = io.env.ORDERFLOW_CLOCK_START;
  if (start === undefined || start === '') return systemClock;
  const startMs = Date.parse(start);
  if (!Number.isFinite(startMs)) {
    throw new UsageError(`ORDERFLOW_CLOCK_START must be an ISO 8601 instant (was '${start}')`);
  }
  return shiftedClock(startMs);
}

/**
 * Runs `body` on the data directory's store. An admin command never creates a data directory
 * (a typo must not start a new one); `createStore` lets `keys create` start the store in one.
 */
export async function withAdminStore<T>(dataDirFlag: string | undefined, io: CommandIo,
  body: (store: Store, clock: Clock) => Promise<T>, createStore = false): Promise<T> {
  const clock = adminClock(io);
  const store = await openStore({
    dataDir: dataDirOf(dataDirFlag, io), clock, createDataDir: false, createStore,
    watchKeys: false,
  });
  try {
    return await body(store, clock);
  } finally {
    await store.close();
  }
}
