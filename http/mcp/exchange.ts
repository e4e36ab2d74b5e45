// One uWS request/response exchange bridged to web streams: abort tracking, a capped body read,
// and a Response streamed back inside cork with backpressure.
import type * as uWS from 'uWebSockets.js';
import { statusLine, type HeaderList } from './problem.js';

// Set by uWS itself on a chunked or fixed-length answer; copying them would duplicate framing.
const framingHeaders = new Set(['content-length', 'transfer-encoding', 'connection']);
const ignore = () => {};

function isEventStream(response: Response): boolean {
  return (response.headers.get('content-type') ?? '').startsWith('text/event-stream');
}

/** The part of a web stream reader the bridge uses. */
interface BodyReader {
  read(): Promise<{ done: true; value?: undefined } | { done: false; value: Uint8Array }>;
  cancel(): Promise<void>;
}

function concat(chunks: readonly Uint8Array[], sizeBytes: number): Uint8Array {
  const out = new Uint8Array(sizeBytes);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

export class Exchange {
  aborted = false;
  responded = false;
  /** Aborts the web Request handed to the SDK when the client goes away. */
  readonly abortController = new AbortController();
  // At most two hooks: the body read and the response reader; the drain wait has its own slot.
  private readonly abortHooks: (() => void)[] = [];
  private drainWaiter: (() => void) | null = null;

  private finished = false;

  /** `onFinished` runs once, when the answer has ended or the client has gone. */
  constructor(private readonly res: uWS.HttpResponse, private readonly onFinished = ignore) {
    res.onAborted(() => {
      this.aborted = true;
      this.finish();
      this.abortController.abort();
      for (const hook of this.abortHooks) hook();
      this.drainWaiter?.();
    });
  }

  /** Collects the body (copying each chunk, as uWS neuters it on return), capped at bytesMax. */
  readBody(bytesMax: number): Promise<Uint8Array | 'too_large' | 'aborted'> {
    return new Promise((resolve) => {
      const chunks: Uint8Array[] = [];
      let sizeBytes = 0;
      let settled = false;
      const settle = (value: Uint8Array | 'too_large' | 'aborted') => {
        if (settled) return;
        settled = true;
        resolve(value);
      };
      this.abortHooks.push(() => settle('aborted'));
      this.res.onData((chunk, isLast) => {
        if (settled) return;
        sizeBytes += chunk.byteLength;
        if (sizeBytes > bytesMax) return settle('too_large');
        chunks.push(new Uint8Array(chunk.slice(0)));
        if (isLast) settle(concat(chunks, sizeBytes));
      });
    });
  }

  /** Answers with a complete body; a no-op once answered or aborted. */
  send(status: number, headers: HeaderList, body: string, closeConnection = false): void {
    if (this.aborted || this.responded) return;
    this.responded = true;
    this.res.cork(() => {
      this.res.writeStatus(statusLine(status));
      for (const [name, value] of headers) this.res.writeHeader(name, value);
      this.res.end(body, closeConnection);
    });
    this.finish();
  }

  private finish(): void {
    if (this.finished) return;
    this.finished = true;
    this.onFinished();
  }

  /** Streams a web Response back: head at once, then each chunk as the SDK produces it. */
  async pipe(response: Response, extraHeaders: HeaderList): Promise<void> {
    if (this.aborted || this.responded) {
      await response.body?.cancel().catch(ignore);
      this.finish();
      return;
    }
    this.responded = true;
    if (!isEventStream(response)) return this.sendWhole(response, extraHeaders);
    const reader: BodyReader | undefined = response.body?.getReader();
    if (reader) this.abortHooks.push(() => void reader.cancel().catch(ignore));
    this.res.cork(() => {
      this.writeHead(response, extraHeaders);
      if (!reader) this.res.end();
    });
    if (reader) await this.pump(reader);
    this.finish();
  }

  // A finite body (JSON, errors) goes out in one corked write with its length.
  private async sendWhole(response: Response, extraHeaders: HeaderList): Promise<void> {
    const body = new Uint8Array(await response.arrayBuffer());
    if (this.aborted) return;
    this.res.cork(() => {
      this.writeHead(response, extraHeaders);
      this.res.end(body);
    });
    this.finish();
  }

  private writeHead(response: Response, extraHeaders: HeaderList): void {
    this.res.writeStatus(statusLine(response.status));
    response.headers.forEach((value, name) => {
      if (!framingHeaders.has(name)) this.res.writeHeader(name, value);
    });
    for (const [name, value] of extraHeaders) this.res.writeHeader(name, value);
  }

  private async pump(reader: BodyReader): Promise<void> {
    for (;;) {
      let next: Awaited<ReturnType<BodyReader['read']>>;
      try {
        next = await reader.read();
      } catch {
        next = { done: true, value: undefined };
      }
      if (this.aborted) return;
      if (next.done) {
        this.res.cork(() => this.res.end());
        return;
      }
      const chunk = next.value;
      let flushed = true;
      this.res.cork(() => {
        flushed = this.res.write(chunk);
      });
      if (!flushed) await this.drained();
    }
  }

  // uWS keeps the unsent bytes; wait until it has written them before reading more.
  private drained(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        this.drainWaiter = null;
        resolve();
      };
      this.drainWaiter = done;
      this.res.onWritable(() => {
        done();
        return true;
      });
    });
  }
}
