// The floor of a snapshot's trip on this box: a bare Redis pub/sub hop, measured in the same
// window as the deployment's propagation. A publisher process of its own (no orderflow code)
// publishes a small timestamped message on a timer; the bench's process, subscribed through the
// same redis-server, takes each one's delay from the wall clock both read. What a message waits
// here (the publisher's and the subscriber's wake-ups, Redis's turn, the cores taken by the rest
// of the box, the hypervisor waking an idle virtual core) any code pays; the deployment's
// figures over it are the code's share (bench/log/2026-11-27-propagation-latency-profile.md).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { track } from './children.js';

const channel = 'bench:pubsub-hop';
const wallMs = () => performance.timeOrigin + performance.now();

export interface HopOptions {
  /** A message every this often (the deployment's views: ~200 a second). */
  readonly everyMs: number;
  /** Message size (a view's patch is ~1 KB). */
  readonly bytes: number;
}

export interface PubSubHop {
  /** Stops the publisher and returns every delay seen, in ms, sorted. */
  stop(): Promise<number[]>;
}

/** Subscribes, then starts the publisher; resolves once the first message arrived. */
export async function startPubSubHop(url: string, options: HopOptions): Promise<PubSubHop> {
  const subscriber = new Redis(url, { maxRetriesPerRequest: 1 });
  const delaysMs: number[] = [];
  let first: () => void = () => {};
  const arrived = new Promise<void>((resolve) => { first = resolve; });
  let counting = false;
  subscriber.on('messageBuffer', (_channel: Buffer, message: Buffer) => {
    const sentMs = Number(message.subarray(0, message.indexOf(32)).toString());
    if (counting) delaysMs.push(wallMs() - sentMs);
    first();
  });
  await subscriber.subscribe(channel);
  const publisher = track(spawn(process.execPath, ['--import', 'tsx',
    fileURLToPath(import.meta.url), url, String(options.everyMs), String(options.bytes)],
  { stdio: ['ignore', 'ignore', 'inherit'] }));
  await arrived;
  counting = true;
  return {
    async stop() {
      counting = false;
      const exited = new Promise((resolve) => publisher.once('exit', resolve));
      publisher.kill('SIGTERM');
      await exited;
      subscriber.disconnect();
      return delaysMs.sort((a, b) => a - b);
    },
  };
}

/** The publisher: `node --import tsx pubsub-hop.ts URL EVERY_MS BYTES`, until SIGTERM. */
function publish(url: string, everyMs: number, bytes: number): void {
  const client = new Redis(url);
  const pad = Buffer.alloc(bytes, 'x');
  const timer = setInterval(() => {
    const stamp = Buffer.from(`${wallMs()} `);
    void client.publish(channel, Buffer.concat([stamp, pad.subarray(stamp.length)]));
  }, everyMs);
  process.once('SIGTERM', () => {
    clearInterval(timer);
    client.disconnect();
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  publish(process.argv[2]!, Number(process.argv[3]), Number(process.argv[4]));
}
