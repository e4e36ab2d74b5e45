// Starts the fastify peer (lib/fastify-peer.ts) as its own process, like the service: the two
// then compete for the same cores on equal terms.
import { spawn } from 'node:child_process';
import { stopChild, tail, track } from './children.js';

const peerScript = new URL('./fastify-peer.ts', import.meta.url).pathname;
const listenTimeoutMs = 30_000;

export interface PeerProcess {
  readonly baseUrl: string;
  readonly pid: number;
  stop(): Promise<void>;
}

export async function startPeer(seedFile: string, keyDigestHex: string): Promise<PeerProcess> {
  const child = track(spawn(process.execPath, ['--import', 'tsx', peerScript, seedFile,
    keyDigestHex], { stdio: ['ignore', 'pipe', 'pipe'] }));
  const err = tail(16 * 1024);
  child.stderr!.on('data', (chunk: Buffer) => err.add(chunk));
  try {
    const baseUrl = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the fastify peer printed no URL within ` +
        `${listenTimeoutMs} ms: ${err.text()}`)), listenTimeoutMs);
      child.stdout!.on('data', (chunk: Buffer) => {
        const match = /peer listening on (http:\/\/\S+)/.exec(chunk.toString());
        if (match) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`the fastify peer exited early (code ${code}): ${err.text()}`));
      });
    });
    return { baseUrl, pid: child.pid!, stop: () => stopChild(child) };
  } catch (error) {
    await stopChild(child, 1_000);
    throw error;
  }
}
