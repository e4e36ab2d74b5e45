// The service on the live adapter against the venue stub: real recorded universe, and only the
// trades a bench injects. Used by the freshness and fastify-peer benches; `npm run bench` holds
// one instance across both (one start-up less in the 3-minute quick budget).
import { createKey, removeDir, startService, tempDataDir, waitFor, waitReady,
  type ServiceChild } from './service.js';
import { startVenueStub, type VenueStub } from './venue-stub.js';

export interface LiveService {
  readonly venue: VenueStub;
  readonly service: ServiceChild;
  /** A Whale key: every endpoint, limits off. */
  readonly key: string;
  readonly auth: Readonly<Record<string, string>>;
  close(): Promise<void>;
}

/** Starts stub + service, waits for /readyz and for `coin`'s deep view to be served. */
export async function startLiveService(label: string, coin: string): Promise<LiveService> {
  const venue = await startVenueStub();
  const dataDir = await tempDataDir(label);
  let service: ServiceChild | null = null;
  const close = async () => {
    await service?.stop();
    await venue.close();
    await removeDir(dataDir);
  };
  try {
    service = await startService({ dataDir, args: ['--feed', 'live', '--limits', 'off'],
      env: { ORDERFLOW_HOME_WS_URL: venue.wsUrl, ORDERFLOW_HOME_INFO_URL: venue.infoUrl } });
    // Made while the server runs, as an operator would: it sees the key within a second.
    const key = await createKey(dataDir, 'Whale');
    const auth = { authorization: `Bearer ${key}` };
    await waitReady(service.baseUrl);
    await waitFor(`${service.baseUrl}/api/v1/deep-view/${coin}`, auth,
      (status) => status === 200, 60_000);
    return { venue, service, key, auth, close };
  } catch (error) {
    await close();
    throw error;
  }
}

let holding = false;
let held: Promise<LiveService> | null = null;

/** While held, useLiveService keeps its instance for the next bench instead of closing it. */
export function holdLiveService(): void {
  holding = true;
}

/** Ends holding and closes the held instance, if any. */
export async function releaseLiveService(): Promise<void> {
  holding = false;
  const instance = held;
  held = null;
  // A start that failed has nothing to close (its own clean-up already ran).
  if (instance) await instance.then((live) => live.close(), () => undefined);
}

/** Runs body with a live service: a fresh one, or the held one under `npm run bench`. */
export async function useLiveService<T>(label: string, coin: string,
  body: (live: LiveService) => Promise<T>): Promise<T> {
  if (!holding) {
    const live = await startLiveService(label, coin);
    try {
      return await body(live);
    } finally {
      await live.close();
    }
  }
  held ??= startLiveService('shared', coin);
  const instance = held;
  try {
    return await body(await instance);
  } catch (error) {
    // A failed bench may leave the instance in any state: the next one starts afresh.
    if (held === instance) await releaseLiveService().then(() => holdLiveService());
    throw error;
  }
}
