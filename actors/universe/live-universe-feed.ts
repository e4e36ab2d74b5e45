// The home venue's universe on the main thread, polled from the info endpoint: the main dex's
// metaAndAssetCtxs every cadence; the builder dexes (from perpDexs) and predictedFundings every
// `slowEvery` cadences, to stay well inside the REST weight budget; tracked wallets' states
// when a wallet parser is supplied.
import type { WalletStateEvent } from '../../core/messages.js';
import type { InfoClient } from '../feed/home/info-client.js';
import type { UniverseMarket } from './tracked.js';
import type { UniverseFeed, UniverseFeedDeps, UniverseFeedEvent } from './universe-types.js';

export interface LiveUniverseOptions extends UniverseFeedDeps {
  readonly info: InfoClient;
  /** Builder dexes and funding are refreshed every this many cadences (default 6). */
  readonly slowEvery?: number;
  /** Maps a raw clearinghouseState answer (the positioning code's parser). */
  readonly parseWallet?: (raw: unknown, address: string, tsMs: number) => WalletStateEvent | null;
}

export function createLiveUniverseFeed(options: LiveUniverseOptions): UniverseFeed {
  const { info, clock, logger } = options;
  const slowEvery = options.slowEvery ?? 6;
  const walletCadenceMs = options.walletCadenceMs ?? 60_000;
  const builder = new Map<string, UniverseMarket[]>();
  let round = 0;
  let lastWalletMs = -Infinity;
  let timer: NodeJS.Timeout | null = null;
  let running = false;
  let inFlight: Promise<void> = Promise.resolve();

  const refreshBuilders = async () => {
    const dexes = await info.perpDexs();
    if (!dexes.ok) return logger.warn('perpDexs failed', { error: dexes.error });
    for (const dex of dexes.value.slice(0, 16)) {
      const markets = await info.metaAndAssetCtxs(dex);
      if (markets.ok) builder.set(dex, markets.value);
      else logger.warn('metaAndAssetCtxs failed', { dex, error: markets.error });
    }
  };

  const poll = async (sink: (event: UniverseFeedEvent) => void) => {
    const slow = round++ % slowEvery === 0;
    if (slow) await refreshBuilders();
    const main = await info.metaAndAssetCtxs('');
    if (!running) return;
    const tsMs = clock.nowMs();
    if (main.ok) {
      sink({ type: 'universe', tsMs, markets: main.value.concat(...builder.values()) });
    } else logger.warn('metaAndAssetCtxs failed', { dex: '', error: main.error });
    if (slow) {
      const funding = await info.predictedFundings(tsMs);
      if (funding.ok && running) for (const event of funding.value) sink(event);
      else if (!funding.ok) logger.warn('predictedFundings failed', { error: funding.error });
    }
    if (options.parseWallet && options.wallets && tsMs - lastWalletMs >= walletCadenceMs) {
      lastWalletMs = tsMs;
      for (const address of options.wallets.slice(0, 1_000)) {
        const state = await info.clearinghouseState(address);
        const event = state.ok ? options.parseWallet(state.value, address, clock.nowMs()) : null;
        if (event && running) sink(event);
      }
    }
  };

  return {
    start(sink) {
      if (running) throw new Error('universe feed already started');
      running = true;
      const loop = () => {
        inFlight = poll(sink).catch((error) => logger.error('universe poll failed', { error }))
          .finally(() => { if (running) timer = setTimeout(loop, options.cadenceMs); });
      };
      loop();
    },
    async stop() {
      running = false;
      if (timer) clearTimeout(timer);
      await inFlight;
      if (timer) clearTimeout(timer);
    },
  };
}
