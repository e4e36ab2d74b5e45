// A local home venue for the freshness bench: /info answers from the real recordings, and the
// WebSocket sends only what the bench injects, stamped with the wall clock at the moment it is
// sent, so "trade entered the service" is a time the bench knows without any clock offset.
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocket, WebSocketServer } from 'ws';

const dataDir = new URL('../../test/fixtures/venue/', import.meta.url).pathname;
const infoBodyBytesMax = 64 * 1024;

export interface VenueStub {
  readonly wsUrl: string;
  readonly infoUrl: string;
  /** Sockets subscribed to this coin's trades. */
  subscribers(coin: string): number;
  /** Sends one trade stamped with the current wall ms; returns that stamp, or null if unsent. */
  sendTrade(coin: string, price: number, side: 1 | -1, tradeId: number): number | null;
  close(): Promise<void>;
}

const read = (file: string) => readFileSync(dataDir + file, 'utf8');

function infoAnswer(body: { type?: string; dex?: string }, main: string): [number, string] {
  switch (body.type) {
    case 'metaAndAssetCtxs':
      if (!body.dex) return [200, main];
      if (body.dex === 'xyz') return [200, read('hl_metaAndAssetCtxs_xyz_2026-02-06.json')];
      return [200, '[{"universe":[]},[]]'];
    case 'perpDexs': return [200, read('hl_perpDexs_2025-12-13.json')];
    case 'predictedFundings': return [200, '[]'];
    case 'clearinghouseState': return [200, read('hl_clearinghouseState_2023-03-27.json')];
    case 'candleSnapshot': return [200, read('hl_candleSnapshot_kPEPE_1h_2023.json')];
    default: return [422, '"Failed to deserialize the JSON body into the target type"'];
  }
}

function handleInfo(req: IncomingMessage, res: ServerResponse, main: string): void {
  let text = '';
  req.setEncoding('utf8');
  req.on('data', (chunk: string) => {
    text += chunk;
    if (text.length > infoBodyBytesMax) req.destroy();
  });
  req.on('end', () => {
    let body: { type?: string; dex?: string } = {};
    try {
      body = JSON.parse(text);
    } catch {
      res.writeHead(400).end('"Failed to deserialize the JSON body"');
      return;
    }
    const [status, answer] = infoAnswer(body, main);
    res.writeHead(status, { 'content-type': 'application/json' }).end(answer);
  });
}

function ctxFrame(main: string, coin: string): string {
  const [meta, ctxs] = JSON.parse(main) as [{ universe: { name: string }[] }, unknown[]];
  const i = meta.universe.findIndex((u) => u.name === coin);
  return JSON.stringify({ channel: 'activeAssetCtx', data: { coin, ctx: ctxs[Math.max(0, i)] } });
}

export async function startVenueStub(): Promise<VenueStub> {
  const main = read('hl_metaAndAssetCtxs_main_2026-02-06.json');
  const tradeSubscribers = new Map<string, Set<WebSocket>>();
  const server = createServer((req, res) => handleInfo(req, res, main));
  const wss = new WebSocketServer({ server, maxPayload: 64 * 1024 });
  wss.on('connection', (socket) => {
    socket.on('close', () => { for (const set of tradeSubscribers.values()) set.delete(socket); });
    socket.on('message', (data) => {
      let msg: { method?: string; subscription?: { type?: string; coin?: string } };
      try {
        msg = JSON.parse(data.toString());
      } catch {
        return socket.send('{"channel":"error","data":"Invalid JSON"}');
      }
      if (msg.method === 'ping') return socket.send('{"channel":"pong"}');
      const sub = msg.subscription;
      if (!sub?.coin || (msg.method !== 'subscribe' && msg.method !== 'unsubscribe')) return;
      socket.send(JSON.stringify({ channel: 'subscriptionResponse', data: msg }));
      if (sub.type === 'trades') {
        const set = tradeSubscribers.get(sub.coin) ?? new Set<WebSocket>();
        tradeSubscribers.set(sub.coin, set);
        if (msg.method === 'subscribe') set.add(socket);
        else set.delete(socket);
      }
      if (msg.method === 'subscribe' && sub.type === 'activeAssetCtx') {
        socket.send(ctxFrame(main, sub.coin));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const maker = '0x' + 'a'.repeat(40);
  const taker = '0x' + 'b'.repeat(40);
  return {
    wsUrl: `ws://127.0.0.1:${port}/ws`,
    infoUrl: `http://127.0.0.1:${port}/info`,
    subscribers: (coin) => tradeSubscribers.get(coin)?.size ?? 0,
    sendTrade(coin, price, side, tradeId) {
      const sockets = [...(tradeSubscribers.get(coin) ?? [])]
        .filter((s) => s.readyState === WebSocket.OPEN);
      if (sockets.length === 0) return null;
      const timeMs = Date.now();
      const frame = JSON.stringify({ channel: 'trades', data: [{ coin, hash: '0x' + '1'.repeat(64),
        px: String(price), side: side > 0 ? 'B' : 'A', sz: '0.01', tid: tradeId, time: timeMs,
        users: side > 0 ? [taker, maker] : [maker, taker] }] });
      for (const socket of sockets) socket.send(frame);
      return timeMs;
    },
    async close() {
      for (const socket of wss.clients) socket.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
