// The views worker: builds the cross-pair views (screener, every listed market's pair detail,
// signals, funding arbitrage) and the wallet views (wallet-views.ts) from the inputs the main
// thread sends (protocol.ts), and posts back each changed view's bytes with their ETag. The main
// thread only swaps them into its store.
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { strongEtag } from '../../core/etag.js';
import { packedBytes } from '../../core/owned-bytes.js';
import { createLogger } from '../../core/logger.js';
import { lowerWorkerPriority } from '../../core/thread-priority.js';
import { dispatchFrame, postFrame, type ProtocolHandlers } from '../shard/protocol.js';
import { MarketViews, type ViewSink } from '../runtime/market-views.js';
import { FundingArbView } from '../positioning/funding-arb-view.js';
import type { ScreenerRow } from '../views/pair-detail.js';
import type { Logger } from '../../core/logger.js';
import { walletViewsHandlers } from './wallet-views.js';
import {
  viewsTypes, type FinishedView, type MainToViews, type ViewsWorkerParams,
} from './protocol.js';

/** Collects what the views put; `flush` posts it in one message, their bytes in one buffer. */
class PostingSink implements ViewSink {
  private readonly known = new Map<string, { etag: string; version: number }>();
  private pending: FinishedView[] = [];

  put(name: string, body: Uint8Array, meta: { version: number; updatedAtMs: number;
    cadenceMs: number; etag?: string }): void {
    const etag = meta.etag ?? strongEtag(body);
    this.known.set(name, { etag, version: meta.version });
    // Copied at the flush: the views keep `body` to compare the next build with.
    this.pending.push({ name, body, etag, updatedAtMs: meta.updatedAtMs,
      cadenceMs: meta.cadenceMs });
  }

  get(name: string): { etag: string; version: number } | undefined {
    return this.known.get(name);
  }

  /** Only names it put: the per-pair views the views drop on a re-rank are the main thread's. */
  delete(name: string): void {
    this.known.delete(name);
  }

  flush(port: MessagePort): void {
    if (this.pending.length === 0) return;
    const { parts, buffer } = packedBytes(this.pending.map((view) => view.body));
    const views = this.pending.map((view, i) => ({ ...view, body: parts[i]! }));
    this.pending = [];
    postFrame(port, { type: viewsTypes.put, views }, [buffer]);
  }
}

/** Answers the dispatch table for a views worker posting on `port`. */
export function viewsWorkerHandlers(port: MessagePort, params: ViewsWorkerParams, log: Logger):
  ProtocolHandlers<MainToViews> {
  const sink = new PostingSink();
  const views = new MarketViews(sink, params.cadenceMs, params.universeCadenceMs);
  const fundingArb = new FundingArbView(params.fundingCadenceMs);
  let rowsSent: readonly ScreenerRow[] = [];
  let signalsSent: ReadonlySet<string> | null = null;
  /** The views first, then the rows: a refresh's answer comes after both. */
  const flush = () => {
    sink.flush(port);
    const rows = views.screenerRows;
    const same = rows.length === rowsSent.length && rows.every((row, i) => row === rowsSent[i]);
    if (same && signalsSent === views.signalsPairs) return;
    rowsSent = rows;
    signalsSent = views.signalsPairs;
    postFrame(port, { type: viewsTypes.rows, rows, signalsSymbols: [...signalsSent] });
  };
  /** A refresh's answer: its views and rows first. */
  const answer = (id: number) => {
    flush();
    postFrame(port, { type: viewsTypes.refreshed, id });
  };
  return {
    ...walletViewsHandlers(port, params.walletCadenceMs, log, () => views.universe),
    [viewsTypes.universe]: (message) => views.applyUniverse(message.event),
    [viewsTypes.tracked]: (message) => views.setTracked(message.symbols),
    [viewsTypes.pairs]: (message) => {
      let first = false;
      for (const pair of message.pairs) {
        const applied = views.applyPairViews([{ symbol: pair.symbol, summary: pair.summary,
          updatedAtMs: pair.updatedAtMs, version: 0, views: {} }], pair.wallNowMs);
        first ||= applied;
      }
      // A pair's first publish makes it whole (signals entry, so readiness) at once.
      const last = message.pairs[message.pairs.length - 1];
      if (first && last !== undefined) views.refresh(last.wallNowMs);
      flush();
    },
    [viewsTypes.refresh]: (message) => {
      views.refresh(message.wallNowMs);
      answer(message.id);
    },
    [viewsTypes.funding]: (message) => {
      for (const event of message.events) fundingArb.apply(event);
    },
    [viewsTypes.refreshFunding]: (message) => {
      const steps = fundingArb.buildSteps(views.screenerRows);
      let step = steps.next();
      while (!step.done) step = steps.next();
      const { bytes, atMs } = step.value;
      sink.put('funding-arb', bytes, { version: 0, updatedAtMs: atMs,
        cadenceMs: params.fundingCadenceMs });
      answer(message.id);
    },
  };
}

if (parentPort !== null && (workerData as { viewsWorker?: unknown } | null)?.viewsWorker) {
  const port = parentPort;
  const params = (workerData as { params: ViewsWorkerParams }).params;
  const log = createLogger({ level: params.logLevel }, { component: 'views-worker' });
  lowerWorkerPriority(params.workerNice);
  const table = viewsWorkerHandlers(port, params, log);
  port.on('message', (frame: unknown) => { dispatchFrame(table, frame, log, 'main'); });
}
