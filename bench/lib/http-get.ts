// A small keep-alive GET client for probes: lighter than fetch on a 2-core machine under load.
import { Agent, request } from 'node:http';

const agent = new Agent({ keepAlive: true, maxSockets: 4 });
/** Probe bodies are snapshots (screener ~50 KB); anything far bigger is a fault. */
const bodyBytesMax = 4 * 1024 * 1024;
const requestTimeoutMs = 10_000;

export interface TextResponse {
  readonly status: number;
  readonly body: string;
}

export function getText(url: string, headers: Readonly<Record<string, string>> = {}):
  Promise<TextResponse> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, headers, timeout: requestTimeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (bytes > bodyBytesMax) {
          req.destroy(new Error(`${url} body must stay under ${bodyBytesMax} bytes`));
          return;
        }
        chunks.push(chunk);
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0,
        body: Buffer.concat(chunks).toString() }));
      res.on('error', reject);
    });
    req.on('timeout', () =>
      req.destroy(new Error(`${url} gave no answer in ${requestTimeoutMs} ms`)));
    req.on('error', reject);
    req.end();
  });
}

/** Closes the idle keep-alive sockets so the bench process can exit. */
export function closeProbeSockets(): void {
  agent.destroy();
}
